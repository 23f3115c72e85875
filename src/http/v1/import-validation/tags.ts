export const VALIDATION_TAGS = ['v1 import validation'];
