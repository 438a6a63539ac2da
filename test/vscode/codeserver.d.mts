// Types for codeserver.mjs (plain ESM so the CLIs run on Node 20 without a build step).
import type { Browser } from 'playwright-core';

export const PROJECT_ROOT: string;
export const DEFAULT_WORKSPACE: string;
export const DEFAULT_TESTS_PATH: string;
export const RESULTS_DIR: string;
export const RESULT_PREFIX: string;
export const CHROMIUM_ARGS: string[];
export const DEFAULT_SETTINGS: Record<string, unknown>;

export interface Runtime {
  cache: string;
  node: string;
  entry: string;
  chromium: string;
}
export function findRuntime(): Runtime;
export function freePort(): Promise<number>;
export function sleep(ms: number): Promise<void>;
export function tail(file: string, lines?: number): string;
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T>;

export interface CodeServer {
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  scratch: string;
  pid: number;
  logFile: string;
  userDir: string;
  extensionsDir: string;
  /** ms from spawn to the first 200 from /healthz */
  startMs: number;
  runtime: Runtime;
  /** Kills code-server's process group and deletes the scratch folder. */
  stop(): Promise<void>;
}
export interface StartCodeServerOptions {
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  log?: (line: string) => void;
  keepScratch?: boolean;
  startTimeoutMs?: number;
  extraArgs?: string[];
}
export function startCodeServer(options?: StartCodeServerOptions): Promise<CodeServer>;
export function launchChromium(options?: { timeoutMs?: number }): Promise<Browser>;
export function remoteUri(port: number, absPath: string): string;
export function workbenchUrl(options: {
  port: number;
  folder?: string;
  extensionDevelopmentPath?: string | string[] | null;
  extensionTestsPath?: string;
}): string;
export function resolveTestsModule(path: string): string;
export function buildProject(log?: (line: string) => void): void;
export function isWorkbenchNoise(text: string): boolean;

export interface IntegrationResult {
  passed: number;
  failed: number;
  pending: number;
  total?: number;
  files?: number;
  durationMs?: number;
  error?: string;
}
export function parseResultLine(line: string): IntegrationResult | null;
export function runExtensionTests(options: {
  extensionDevelopmentPath: string | string[];
  extensionTestsPath: string;
  workspace?: string;
  timeoutMs?: number;
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  out?: (text: string) => void;
  log?: (line: string) => void;
  logsDir?: string;
  keepScratch?: boolean;
}): Promise<{ exitCode: number; result: IntegrationResult | null; timings: Record<string, number | null> }>;
export function runAndReport(options: {
  extensionDevelopmentPath: string | string[];
  extensionTestsPath: string;
  workspace?: string;
  timeoutMs?: number;
  env?: Record<string, string>;
}): Promise<number>;
