/** Where the login box keeps a verified invite link's token for this tab's sign-up or next sign-in (sessionStorage). */
export const INVITE_LINK_KEY = 'gatehouse-invite-link';
