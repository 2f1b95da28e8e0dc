import { DomainError } from '../shared/domain-error.ts';
import { uniqueClaimDecider } from '../shared/unique-claim.ts';

/**
 * A user signs in with an e-mail alone, so an e-mail names one user across all organisations
 * (claimed before the user is added). Compared without case and surrounding spaces.
 */
export const USER_EMAIL_SCOPE = 'user_email';
export const userEmailKey = (email: string) => email.trim().toLowerCase();

export const userEmailClaimDecider = uniqueClaimDecider(
  (email) => new DomainError('user_exists', `a user with e-mail ${email} already exists`),
);
