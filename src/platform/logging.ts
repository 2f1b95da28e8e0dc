import { createRequire } from 'node:module';
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

/** How lines are written: JSON (for machines), pretty (for a person at a terminal), or pretty only when stdout is one. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** A request line as one readable sentence; other lines show their message and fields. */
const PRETTY_MESSAGE = '{msg}{if method} {method} {route} {status}{end}{if error} {error}{end}{if caller} ({caller}){end}{if ms} {ms} ms{end}{if request_id} [{request_id}]{end}';

/**
 * pino-pretty as a stream, when it is installed: it is a devDependency, so a production install
 * (npm ci --omit=dev) has none, and the lines stay JSON.
 */
function prettyStream(): DestinationStream | null {
  try {
    const require = createRequire(import.meta.url);
    const pretty = require('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
    return pretty({
      colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,request_id,method,route,path,status,error,caller,ms',
      messageFormat: PRETTY_MESSAGE, sync: true,
    });
  } catch {
    return null;
  }
}

/** Whether lines go out pretty: LOG_FORMAT=pretty, or `auto` on a terminal (stdout a TTY); never into a given destination. */
export function wantsPretty(format: LogFormat, destination: DestinationStream | undefined, isTty = process.stdout.isTTY === true): boolean {
  if (destination || format === 'json') return false;
  return format === 'pretty' || isTty;
}

export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  const pretty = wantsPretty(format, destination) ? prettyStream() : null;
  const out = destination ?? pretty;
  return out ? pino(options, out) : pino(options);
}
