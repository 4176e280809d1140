/** Vendor public info (seed 000 section 7.3), apart from `ApiPaths` so the first bytes the browser loads do not carry it. */
export const VENDOR_PUBLIC_INFO_PATH = '/vendors/public/info';
