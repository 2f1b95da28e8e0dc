import { DomainError } from '../../../commands/shared/domain-error.ts';

export type InvalidTokenReason =
  | 'malformed'
  | 'wrong_algorithm'
  | 'unknown_key'
  | 'bad_signature'
  | 'expired'
  | 'not_yet_valid'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'wrong_type'
  /** exp - iat beyond the 900 s an access token may live: not one we issue, whoever signed it */
  | 'lifetime_too_long'
  /** its session was ended or its OAuth client revoked */
  | 'revoked';

/**
 * A refused JWT. A DomainError (`invalid_token`, the code authenticate.ts already answers) so
 * each door maps it unchanged; `reason` is for logs and tests and stays out of the body, which tells a
 * client only that the token is not good.
 */
export class InvalidToken extends DomainError {
  constructor(readonly reason: InvalidTokenReason) {
    super('invalid_token', reason === 'expired' ? 'the token has expired' : 'the bearer token is not valid');
    this.name = 'InvalidToken';
  }
}
