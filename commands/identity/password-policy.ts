import { DomainError } from '../shared/domain-error.ts';

/** The spec's new-password rule: 8-128 characters, upper, lower, digit and special character. */
const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

type PasswordRequirement = 'min_length' | 'max_length' | 'uppercase' | 'lowercase' | 'digit' | 'special';

/**
 * What a candidate password lacks, empty when it passes. Counted in code points and Unicode
 * classes, so "Č" is an upper-case letter and an emoji one character.
 */
export function unmetPasswordRequirements(password: string): PasswordRequirement[] {
  const unmet: PasswordRequirement[] = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) unmet.push('min_length');
  if (length > PASSWORD_MAX_LENGTH) unmet.push('max_length');
  if (!/\p{Lu}/u.test(password)) unmet.push('uppercase');
  if (!/\p{Ll}/u.test(password)) unmet.push('lowercase');
  if (!/\p{Nd}/u.test(password)) unmet.push('digit');
  if (!/[^\p{L}\p{N}]/u.test(password)) unmet.push('special');
  return unmet;
}

/** Refuses a weak password with 422 `weak_password`, listing every unmet requirement at once. */
export function assertStrongPassword(password: string): void {
  const unmet = unmetPasswordRequirements(password);
  if (unmet.length > 0) {
    throw new DomainError('weak_password', `the new password does not meet: ${unmet.join(', ')}`, { unmet });
  }
}
