// --audit-policy-file and --audit-log-path: the policy read as kube-apiserver reads it (an invalid one stops
// the server with its message), and the log backend: one JSON Event per line, appended to the file, or to
// standard output for "-". Without a policy no events are written, as the real server; without a path the
// events only reach the engine's own ring (GET /x-playground/audit).

import { createWriteStream, readFileSync } from 'node:fs';
import { parsePolicy, type AuditSink, type Policy } from '../../engine/audit/index.js';
import { goJsonText } from '../../engine/codec/go-format.js';

export interface AuditFlags {
  auditLogPath?: string;
  auditPolicyFile?: string;
}

/** The policy of --audit-policy-file; throws kube-apiserver's message for a file it would refuse. */
export function loadAuditPolicy(path: string): Policy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file or directory' : err.code === 'EISDIR' ? 'is a directory' : err.message;
    throw new Error(`loading audit policy file: failed to read file path ${JSON.stringify(path)}: open ${path}: ${why}`);
  }
  try {
    return parsePolicy(text);
  } catch (e) {
    throw new Error(`loading audit policy file: ${(e as Error).message}: from file ${path}`);
  }
}

/** A sink writing JSON lines to a file (appending) or to standard output. */
export function auditLogSink(path: string): AuditSink {
  if (path === '-') return (event) => void process.stdout.write(goJsonText(JSON.stringify(event)) + '\n');
  const out = createWriteStream(path, { flags: 'a' });
  out.on('error', (e) => process.stderr.write(`audit log ${path}: ${e.message}\n`));
  return (event) => void out.write(goJsonText(JSON.stringify(event)) + '\n');
}

/** The engine's audit options for the flags (undefined: no policy, no events). */
export function auditOptions(flags: AuditFlags): { policy?: Policy; sinks?: AuditSink[] } | undefined {
  if (!flags.auditPolicyFile) return undefined;
  const policy = loadAuditPolicy(flags.auditPolicyFile);
  return { policy, sinks: flags.auditLogPath ? [auditLogSink(flags.auditLogPath)] : [] };
}
