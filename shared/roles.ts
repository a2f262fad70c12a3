// The people of a company and what each may do (docs/product.md, "The team"). A route of the
// contract names the roles that may call it (`x-roles`, api/contract/define.ts); the server
// refuses every other role with 403 before the handler runs (api/routes.ts).

export const ROLES = ['owner', 'dispatcher', 'driver'] as const;
export type Role = (typeof ROLES)[number];

/** Everything, including billing, payment settings, prices and people. */
export const OWNER: readonly Role[] = ['owner'];
/** The office: quotes, jobs, drivers and trucks, not the company's settings, billing or people. */
export const OFFICE: readonly Role[] = ['owner', 'dispatcher'];
/** Everyone signed in: their own account, the company's name and brand. */
export const EVERYONE: readonly Role[] = ROLES;

export const ROLE_WORDS: Record<Role, string> = { owner: 'Owner', dispatcher: 'Dispatcher', driver: 'Driver' };
