/*
 * Reads what an operator pastes as the import's source. new-api's SQL_DSN is Go's go-sql-driver/mysql form
 * (`user:pass@tcp(host:port)/db?params`, or `unix(/path.sock)`); PostgreSQL DSNs are URLs there already.
 */

export type ParsedSource =
  | { dialect: 'sqlite'; file: string; label: string }
  | {
      dialect: 'mysql';
      host?: string;
      port?: number;
      socketPath?: string;
      user: string;
      password: string;
      database: string;
      label: string;
    }
  | { dialect: 'postgres'; connectionString: string; label: string };

export class SourceSpecError extends Error {}

const hidePassword = (s: string) =>
  s.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@').replace(/^([^:/@()]*:).*@(tcp|unix)\(/, '$1***@$2(');

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export function parseSourceSpec(input: string): ParsedSource {
  const spec = input.trim();
  if (!spec)
    throw new SourceSpecError('no source given: a SQLite file, a mysql:// or postgres:// URL, or new-api’s SQL_DSN');
  const label = hidePassword(spec);
  if (/^postgres(ql)?:\/\//i.test(spec)) return { dialect: 'postgres', connectionString: spec, label };
  if (/^(mysql|mariadb):\/\//i.test(spec)) {
    const url = new URL(spec.replace(/^mariadb:/i, 'mysql:'));
    const database = decode(url.pathname.replace(/^\//, ''));
    if (!database) throw new SourceSpecError(`${label} names no database (…/dbname)`);
    const socket = url.searchParams.get('socket') ?? url.searchParams.get('socketPath');
    return {
      dialect: 'mysql',
      ...(socket ? { socketPath: socket } : { host: url.hostname || 'localhost', port: Number(url.port) || 3306 }),
      user: decode(url.username) || 'root',
      password: decode(url.password),
      database,
      label,
    };
  }
  // go-sql-driver/mysql: [user[:password]@][net[(addr)]]/dbname[?params]; the password may hold '@' or ':'.
  const go = /^(?:(.*)@)?(tcp|unix)\(([^)]*)\)\/([^?]*)(?:\?.*)?$/.exec(spec);
  if (go) {
    const [, auth = '', net, addr, db] = go;
    const colon = auth.indexOf(':');
    const user = colon >= 0 ? auth.slice(0, colon) : auth;
    const password = colon >= 0 ? auth.slice(colon + 1) : '';
    if (!db) throw new SourceSpecError(`${label} names no database (…)/dbname)`);
    if (net === 'unix')
      return { dialect: 'mysql', socketPath: addr, user: user || 'root', password, database: db, label };
    const m = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(addr);
    return {
      dialect: 'mysql',
      host: m?.[1] || '127.0.0.1',
      port: m?.[2] ? Number(m[2]) : 3306,
      user: user || 'root',
      password,
      database: db,
      label,
    };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec))
    throw new SourceSpecError(
      `${label}: unknown database kind (a SQLite file, mysql://, postgres:// or new-api’s SQL_DSN)`,
    );
  // new-api's SQLITE_PATH may carry GORM's query string (`one-api.db?_busy_timeout=5000`).
  return { dialect: 'sqlite', file: spec.replace(/\?_[a-z_]+=.*$/i, ''), label };
}
