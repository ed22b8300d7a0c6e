export const SERVICE_NAME = 'perpdesk';
/** The API contract version this service implements. */
export const SERVICE_VERSION = '2.9.1';
