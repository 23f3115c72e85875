export const INBOUND_ADMIN_TAGS = ['admin: inbound shipments'];
