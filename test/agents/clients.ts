/*
 * The five real agent clients, each run headless with its default configuration: only what a user must set
 * to use a gateway (base URL, key, model name), in a HOME of its own, with telemetry, update checks, error
 * reporting and every network call other than the gateway turned off (the machine has no internet). How
 * each one is pointed at the gateway was found by running it against a recording server (see
 * docs/conformance.md, "Real agent clients").
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENTS_DIR } from '../../scripts/install-agent-clients.mjs';

export const CLIENTS = [
  {
    id: 'claude',
    label: 'Claude Code',
    pkg: '@anthropic-ai/claude-code',
    door: 'Anthropic Messages',
    setup:
      '`claude -p <prompt> --output-format json --model <model> --allowedTools Read` (`--continue` for the next steps); `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`; `CLAUDE_CONFIG_DIR` in the temp HOME; `DISABLE_TELEMETRY`, `DISABLE_ERROR_REPORTING`, `DISABLE_AUTOUPDATER`, `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`',
  },
  {
    id: 'codex',
    label: 'Codex',
    pkg: '@openai/codex',
    door: 'OpenAI Responses',
    setup:
      '`codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -m <model> <prompt>` (`exec resume --last` for the next steps); `CODEX_HOME/config.toml`: `openai_base_url = "<gateway>/v1"`, `check_for_update_on_startup = false`, `[analytics] enabled = false`; the key in `CODEX_API_KEY` (0.171 sends nothing from `OPENAI_API_KEY`)',
  },
  {
    id: 'gemini',
    label: 'Gemini CLI',
    pkg: '@google/gemini-cli',
    door: 'Gemini',
    setup:
      '`gemini -p <prompt> -m <model> --yolo --output-format json` (`--resume latest` for the next steps); `GOOGLE_GEMINI_BASE_URL`, `GEMINI_API_KEY`, `GEMINI_CLI_TRUST_WORKSPACE=true` (headless runs refuse an untrusted folder); `~/.gemini/settings.json`: API-key auth, usage statistics, telemetry and auto-update off',
  },
  {
    id: 'qwen',
    label: 'Qwen Code',
    pkg: '@qwen-code/qwen-code',
    door: 'OpenAI chat',
    setup:
      '`qwen -p <prompt> --yolo --output-format json` (`--continue` for the next steps); `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL`; `~/.qwen/settings.json`: openai auth, usage statistics, telemetry and auto-update off, `model.generationConfig.modalities.image` (Qwen Code sends pictures only to models it knows see them)',
  },
  {
    id: 'opencode',
    label: 'OpenCode',
    pkg: 'opencode-ai',
    door: 'OpenAI chat',
    setup:
      "`opencode run <prompt>` (`run --continue` for the next steps); `~/.config/opencode/opencode.json`: an `@ai-sdk/openai-compatible` provider with the gateway's `baseURL`, the key from an env variable, the model with `modalities.input` text and image; `OPENCODE_DISABLE_MODELS_FETCH`, `_AUTOUPDATE`, `_DEFAULT_PLUGINS`, `_LSP_DOWNLOAD`, `_SHARE`; the `@opencode-ai/plugin` package it installs into its config folder at start comes pinned from the install step (no registry at run time)",
  },
] as const;

export type ClientId = (typeof CLIENTS)[number]['id'];

/** The model name each client is told to use (the gateway maps it to the upstream's model). */
export const CLIENT_MODEL: Record<ClientId, string> = {
  claude: 'claude-sonnet-4-5',
  codex: 'gpt-5.5',
  gemini: 'gemini-3-pro-preview',
  qwen: 'qwen3.6-plus',
  opencode: 'qwen3-coder-plus',
};

export const clientVersion = (id: ClientId): string => {
  const pkg = CLIENTS.find((c) => c.id === id)!.pkg;
  const file = path.join(CLIENTS_DIR, 'node_modules', pkg, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
};

const bin = (name: string) => path.join(CLIENTS_DIR, 'node_modules/.bin', name);

export interface Setup {
  /** The gateway's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  key: string;
  /** An empty folder: HOME and config live in `home/`, the task's files in `work/`. */
  root: string;
}

export interface Invocation {
  cmd: string;
  args: string[];
  env: Record<string, string>;
}

interface ClientRunner {
  /** Writes the client's config into its HOME (once per cell). */
  configure(s: Setup, home: string): void;
  /** The command for one prompt; `resume` continues the cell's last session. */
  invocation(s: Setup, home: string, prompt: string, resume: boolean): Invocation;
}

const writeJson = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};

/** Gemini CLI and Qwen Code (its fork) read the same settings: no usage statistics, telemetry or updates. */
const geminiSettings = (authType: string) => ({
  security: { auth: { selectedType: authType } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
});

const RUNNERS: Record<ClientId, ClientRunner> = {
  claude: {
    configure() {},
    invocation: (s, home, prompt, resume) => ({
      cmd: bin('claude'),
      args: [
        '-p',
        prompt,
        '--output-format',
        'json',
        '--model',
        CLIENT_MODEL.claude,
        // Headless runs may only use tools they are allowed; the task needs the file reader.
        '--allowedTools',
        'Read',
        ...(resume ? ['--continue'] : []),
      ],
      env: {
        CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
        ANTHROPIC_BASE_URL: s.origin,
        ANTHROPIC_API_KEY: s.key,
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    }),
  },
  codex: {
    configure(s, home) {
      mkdirSync(path.join(home, '.codex'), { recursive: true });
      writeFileSync(
        path.join(home, '.codex/config.toml'),
        [
          // The built-in OpenAI provider, pointed at the gateway (what OPENAI_BASE_URL did before 0.171).
          `openai_base_url = "${s.origin}/v1"`,
          'check_for_update_on_startup = false',
          '[analytics]',
          'enabled = false',
          '',
        ].join('\n'),
      );
    },
    invocation: (s, home, prompt, resume) => ({
      cmd: bin('codex'),
      args: [
        'exec',
        ...(resume ? ['resume', '--last'] : []),
        '--skip-git-repo-check',
        // The test's own throwaway folder: no approvals to answer, no sandbox (it needs user namespaces).
        '--dangerously-bypass-approvals-and-sandbox',
        '-m',
        CLIENT_MODEL.codex,
        prompt,
      ],
      // Codex 0.171 sends no key from OPENAI_API_KEY; `codex exec` reads CODEX_API_KEY (or a `codex login`).
      env: { CODEX_HOME: path.join(home, '.codex'), CODEX_API_KEY: s.key },
    }),
  },
  gemini: {
    configure: (_s, home) => writeJson(path.join(home, '.gemini/settings.json'), geminiSettings('gemini-api-key')),
    invocation: (s, _home, prompt, resume) => ({
      cmd: bin('gemini'),
      args: [
        '-p',
        prompt,
        '-m',
        CLIENT_MODEL.gemini,
        '--yolo',
        '--output-format',
        'json',
        ...(resume ? ['--resume', 'latest'] : []),
      ],
      env: {
        GEMINI_API_KEY: s.key,
        GOOGLE_GEMINI_BASE_URL: s.origin,
        // Headless runs refuse an untrusted folder; the test's folder is trusted.
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        // Speed only: no second Node process with a larger heap.
        GEMINI_CLI_NO_RELAUNCH: 'true',
      },
    }),
  },
  qwen: {
    configure: (_s, home) =>
      writeJson(path.join(home, '.qwen/settings.json'), {
        ...geminiSettings('openai'),
        // Qwen Code sends pictures only to models it knows see them; a gateway's model is declared so.
        model: { generationConfig: { modalities: { image: true } } },
      }),
    invocation: (s, _home, prompt, resume) => ({
      cmd: bin('qwen'),
      args: ['-p', prompt, '--yolo', '--output-format', 'json', ...(resume ? ['--continue'] : [])],
      env: {
        OPENAI_API_KEY: s.key,
        OPENAI_BASE_URL: `${s.origin}/v1`,
        OPENAI_MODEL: CLIENT_MODEL.qwen,
        QWEN_CODE_NO_RELAUNCH: 'true',
      },
    }),
  },
  opencode: {
    configure(s, home) {
      const dir = path.join(home, '.config/opencode');
      writeJson(path.join(dir, 'opencode.json'), {
        $schema: 'https://opencode.ai/config.json',
        autoupdate: false,
        share: 'disabled',
        model: `switchyard/${CLIENT_MODEL.opencode}`,
        provider: {
          switchyard: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Switchyard',
            options: { baseURL: `${s.origin}/v1`, apiKey: '{env:SWITCHYARD_API_KEY}' },
            // A custom model is text-only unless declared: OpenCode sends no picture to it otherwise.
            models: {
              [CLIENT_MODEL.opencode]: {
                name: CLIENT_MODEL.opencode,
                modalities: { input: ['text', 'image'], output: ['text'] },
              },
            },
          },
        },
      });
      // OpenCode installs @opencode-ai/plugin into its config folder at start (from the registry): the
      // install step pinned it (opencode-config/), so the folder is already complete.
      const seed = path.join(CLIENTS_DIR, 'opencode-config');
      for (const f of ['package.json', 'package-lock.json']) copyFileSync(path.join(seed, f), path.join(dir, f));
      symlinkSync(path.join(seed, 'node_modules'), path.join(dir, 'node_modules'));
    },
    invocation: (s, _home, prompt, resume) => ({
      cmd: bin('opencode'),
      args: ['run', ...(resume ? ['--continue'] : []), prompt],
      env: {
        SWITCHYARD_API_KEY: s.key,
        OPENCODE_DISABLE_MODELS_FETCH: 'true',
        OPENCODE_DISABLE_AUTOUPDATE: 'true',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: 'true',
        OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
        OPENCODE_DISABLE_SHARE: 'true',
      },
    }),
  },
};

/**
 * The answer (or error) a client printed, out of its JSON output when it prints JSON (Claude Code's
 * `result`, Gemini CLI's `response` or `error`, Qwen Code's last event), else its last lines.
 */
export function answerOf(stdout: string): string {
  try {
    const v = JSON.parse(stdout) as unknown;
    const last = (Array.isArray(v) ? v.at(-1) : v) as Record<string, unknown>;
    const err = last.error as Record<string, unknown> | undefined;
    const text = last.result ?? last.response ?? err?.message;
    if (typeof text === 'string') return text;
  } catch {
    /* not JSON: plain text */
  }
  return stdout
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(-6)
    .join(' ⏎ ');
}

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/** A client set up in `s.root` (its HOME and working folder), ready to run prompts. */
export function prepareClient(id: ClientId, s: Setup) {
  const home = path.join(s.root, 'home');
  const work = path.join(s.root, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  RUNNERS[id].configure(s, home);
  return {
    home,
    work,
    run: (prompt: string, resume: boolean, timeoutMs: number) =>
      runCommand(RUNNERS[id].invocation(s, home, prompt, resume), home, work, timeoutMs),
  };
}

function runCommand(inv: Invocation, home: string, cwd: string, timeoutMs: number): Promise<RunResult> {
  const started = Date.now();
  // A clean environment: nothing of the test runner's (keys, proxies, CI flags) leaks into the client.
  const env = {
    PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TERM: 'dumb',
    NO_COLOR: '1',
    LANG: 'C.UTF-8',
    ...inv.env,
  };
  return new Promise((resolve) => {
    const child = spawn(inv.cmd, inv.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // The whole process group: the clients start helpers (shells, a relaunched Node) that must go too.
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      kill();
      resolve({ exitCode, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}
