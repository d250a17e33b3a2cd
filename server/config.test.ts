import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_AZURE_API_VERSION, loadConfig } from './config.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'test-session-secret-0123456789', ...env });

describe('AZURE_DEFAULT_API_VERSION', () => {
  it('is the api-version for Azure channels without their own; 2024-10-21 when unset or empty', () => {
    expect(DEFAULT_AZURE_API_VERSION).toBe('2024-10-21');
    expect(load({}).azureDefaultApiVersion).toBe('2024-10-21');
    expect(load({ AZURE_DEFAULT_API_VERSION: '' }).azureDefaultApiVersion).toBe('2024-10-21');
    expect(load({ AZURE_DEFAULT_API_VERSION: ' 2025-04-01-preview ' }).azureDefaultApiVersion).toBe(
      '2025-04-01-preview',
    );
  });

  it('refuses a value that would break the query string, naming the variable', () => {
    expect(() => load({ AZURE_DEFAULT_API_VERSION: '2024-10-21&x=1' })).toThrow(ConfigError);
    expect(() => load({ AZURE_DEFAULT_API_VERSION: '2024 10 21' })).toThrow(/AZURE_DEFAULT_API_VERSION/);
  });
});
