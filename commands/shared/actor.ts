/** Roles the spec names. An API key acts as an organisation admin. */
export type Role = 'admin' | 'approver' | 'accountant';

/** Who sends a command: resolved by authentication, passed into every command. */
export interface Actor {
  type: 'api_key' | 'user' | 'oauth_client' | 'system';
  /** api key id, user id, OAuth client_id, or a system component name */
  id: string;
  /** the organisation the actor acts within; every resource outside it is 404 */
  organisationId: string;
  role: Role;
  /** a signed-in user's session (refresh family), from the access token */
  sessionId?: string;
}
