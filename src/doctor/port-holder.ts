import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

/** Who listens on a port, as far as this user can see: the process and whether it is this bot. */
export interface PortHolder {
  pid: number;
  /** The program's name (its executable's file name), never its command line: that may hold secrets. */
  name: string;
  /** Runs the bot, its webhook receiver or its dashboard (npm start, npm run receiver, npm run dashboard, the container's entry). */
  isBot: boolean;
}

const LISTEN = '0A';
const BOT_SCRIPT = /processes\/(bot|receiver|dashboard)\.js(\s|$)/;

/**
 * Linux only, best effort: the listening socket's inode from /proc/net/tcp{,6}, then the process with
 * that socket among its file descriptors. Undefined whenever it cannot tell (another OS, another
 * user's process, a container boundary): the caller must then not assume the port is the bot's.
 */
export function portHolder(port: number, proc = '/proc'): PortHolder | undefined {
  try {
    const inodes = listeningInodes(port, proc);
    if (inodes.size === 0) return undefined;
    for (const entry of readdirSync(proc)) {
      if (!/^\d+$/.test(entry)) continue;
      if (!holdsOne(`${proc}/${entry}/fd`, inodes)) continue;
      const pid = Number(entry);
      const name = programName(`${proc}/${entry}`);
      const command = readFileSync(`${proc}/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      return { pid, name, isBot: BOT_SCRIPT.test(command) };
    }
  } catch {
    // No /proc, or parts of it unreadable: cannot tell.
  }
  return undefined;
}

/**
 * The executable's file name (`node`, `nginx`), else the kernel's short name for the process: Node 24
 * names its main thread, so /proc/<pid>/comm reads "MainThread" for every Node program.
 */
function programName(folder: string): string {
  try {
    return basename(readlinkSync(`${folder}/exe`).replace(/ \(deleted\)$/, ''));
  } catch {
    return readFileSync(`${folder}/comm`, 'utf8').trim();
  }
}

function listeningInodes(port: number, proc: string): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`${proc}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== LISTEN) continue;
      if (fields[1]?.split(':')[1] === hexPort) inodes.add(fields[9] as string);
    }
  }
  return inodes;
}

function holdsOne(fdFolder: string, inodes: ReadonlySet<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(fdFolder);
  } catch {
    return false;
  }
  for (const fd of fds) {
    let target: string;
    try {
      target = readlinkSync(`${fdFolder}/${fd}`);
    } catch {
      continue;
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined && inodes.has(inode)) return true;
  }
  return false;
}
