import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Where a secret could appear in a log line: credentials in headers, and the fields of request
 * and response bodies that carry passwords, keys, tokens and secrets. Handlers log ids, never
 * bodies; this is the net under that rule.
 */
const REDACTED_PATHS = [
  'req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie',
  'headers.authorization', 'headers["x-api-key"]',
  '*.password', '*.current_password', '*.new_password', '*.password_hash',
  '*.api_key', '*.key_hash', '*.client_secret', '*.secret', '*.secret_hash', '*.totp_secret',
  '*.access_token', '*.refresh_token', '*.challenge_token', '*.token',
  'password', 'api_key', 'client_secret', 'access_token', 'refresh_token', 'token',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
