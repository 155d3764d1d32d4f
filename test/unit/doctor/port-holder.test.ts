import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { portHolder } from '../../../src/doctor/port-holder.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * A folder laid out as Linux's /proc shows one process listening on `port`: its socket in net/tcp,
 * the socket among its file descriptors, its short name, executable and command line.
 */
function procWith(port: number, process: { comm: string; exe?: string; cmdline: string[] }): string {
  const proc = mkdtempSync(path.join(tmpdir(), 'proc-'));
  folders.push(proc);
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  mkdirSync(path.join(proc, 'net'));
  writeFileSync(
    path.join(proc, 'net', 'tcp'),
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n' +
      `   0: 0100007F:${hexPort} 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1\n`,
  );
  const pid = path.join(proc, '4321');
  mkdirSync(path.join(pid, 'fd'), { recursive: true });
  symlinkSync('socket:[4242]', path.join(pid, 'fd', '7'));
  writeFileSync(path.join(pid, 'comm'), `${process.comm}\n`);
  writeFileSync(path.join(pid, 'cmdline'), `${process.cmdline.join('\0')}\0`);
  if (process.exe !== undefined) symlinkSync(process.exe, path.join(pid, 'exe'));
  return proc;
}

describe('who holds a port', () => {
  it("names a Node program by its executable, not by Node 24's main thread name", () => {
    const proc = procWith(8080, {
      comm: 'MainThread',
      exe: '/opt/node-v24/bin/node',
      cmdline: ['node', 'dist/src/processes/bot.js'],
    });
    expect(portHolder(8080, proc)).toEqual({ pid: 4321, name: 'node', isBot: true });
  });

  it('falls back to the short name when the executable cannot be read, and tells another program from the bot', () => {
    const proc = procWith(8081, { comm: 'nginx', cmdline: ['nginx: master process', '/usr/sbin/nginx'] });
    expect(portHolder(8081, proc)).toEqual({ pid: 4321, name: 'nginx', isBot: false });
  });

  it('cannot tell for a port nothing in the table listens on', () => {
    const proc = procWith(8082, { comm: 'node', cmdline: ['node'] });
    expect(portHolder(9999, proc)).toBeUndefined();
  });
});
