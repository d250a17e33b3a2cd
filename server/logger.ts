import pino, { type Logger } from 'pino';

/** JSON logs (stdout unless `destination`); credentials and cookies are redacted wherever they appear in logged objects. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
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
  };
  return destination ? pino(options, destination) : pino(options);
}

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made on first use. Fastify gives every request a pino child
 * carrying its id; making one (the bindings serialised and run through the redaction)
 * was ~4% of the relay's CPU under load, for requests that mostly never log. A line
 * below the parent's level is dropped without making the child.
 */
class LazyChildLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: pino.Bindings,
    private readonly options: pino.ChildLoggerOptions,
  ) {}

  #logger(): Logger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  #write(level: LevelName, args: unknown[]): void {
    if (this.#child || this.parent.isLevelEnabled(level)) (this.#logger()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.#logger().level = level;
  }
  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return this.#logger().child(bindings, options);
  }
  fatal(...args: unknown[]) {
    this.#write('fatal', args);
  }
  error(...args: unknown[]) {
    this.#write('error', args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', args);
  }
  info(...args: unknown[]) {
    this.#write('info', args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', args);
  }
  silent() {}
}

/** Fastify's `childLoggerFactory`: request loggers made on first use (LazyChildLogger). */
export function lazyChildLogger(
  parent: Logger,
  bindings: pino.Bindings,
  options: pino.ChildLoggerOptions,
): LazyChildLogger {
  return new LazyChildLogger(parent, bindings, options);
}
