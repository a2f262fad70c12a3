// The link in a stored account mail (a verification, a reset, a sign-in, an invitation) until the
// outbox sends it: the link is made then, and the database keeps only the token's hash. Its own
// module so the account mails and the team's invitation mail both read it without importing each other.

/** Stands for the link in a stored account mail until it is sent. */
export const LINK_PLACEHOLDER = '{{link}}';
