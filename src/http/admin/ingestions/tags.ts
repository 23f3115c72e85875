export const TAGS = ['admin: ingestions'];
