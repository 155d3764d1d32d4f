import { MessageFlags } from 'discord.js';
/* Plain-text rendering of what a Discord client would show for a bot's message or modal, for
 * `npm run demo` and the playground. Pure: every input (the clock, names, width, styling) comes in
 * through the context. */

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  accent(text: string): string;
}

export const plainStyle: Style = { bold: (t) => t, dim: (t) => t, accent: (t) => t };

/** ANSI styling, for a terminal only. */
export const ttyStyle: Style = {
  bold: (t) => `\x1b[1m${t}\x1b[22m`,
  dim: (t) => `\x1b[2m${t}\x1b[22m`,
  accent: (t) => `\x1b[36m${t}\x1b[39m`,
};

export interface RenderContext {
  /** The clock relative times are read against. */
  now: Date;
  /** User id → display name (without the @). */
  users?: ReadonlyMap<string, string>;
  roles?: ReadonlyMap<string, string>;
  channels?: ReadonlyMap<string, string>;
  /** Total line width, indentation included (default 100). */
  width?: number;
  style?: Style;
}

const ZERO_WIDTH = /\u200b|\u200c|\u200d|\u2060|\ufeff/g;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `23 Nov 2026 17:20 UTC` and friends: Discord's timestamp styles, shown in UTC. */
export function formatDiscordTime(at: Date, style: string | undefined, now: Date): string {
  if (Number.isNaN(at.getTime())) return 'an unknown time';
  const day = `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
  const hm = `${pad2(at.getUTCHours())}:${pad2(at.getUTCMinutes())}`;
  switch (style) {
    case 'R':
      return relativeTimeText(at, now);
    case 't':
      return `${hm} UTC`;
    case 'T':
      return `${hm}:${pad2(at.getUTCSeconds())} UTC`;
    case 'd':
      return day;
    case 'D':
      return `${at.getUTCDate()} ${MONTHS_LONG[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
    case 'F':
      return `${WEEKDAYS[at.getUTCDay()]}, ${day} ${hm} UTC`;
    default:
      return `${day} ${hm} UTC`;
  }
}

/** `in 9 hours`, `3 months ago`, `a few seconds ago`: the thresholds Discord's client uses. */
export function relativeTimeText(at: Date, now: Date): string {
  const diffMs = at.getTime() - now.getTime();
  const s = Math.abs(diffMs) / 1000;
  const m = s / 60;
  const h = m / 60;
  const d = h / 24;
  const amount = (n: number, unit: string, one: string) => {
    const r = Math.round(n);
    return r <= 1 ? one : `${r} ${unit}s`;
  };
  let text: string;
  if (s < 45) text = 'a few seconds';
  else if (s < 90) text = 'a minute';
  else if (m < 45) text = amount(m, 'minute', 'a minute');
  else if (m < 90) text = 'an hour';
  else if (h < 22) text = amount(h, 'hour', 'an hour');
  else if (h < 36) text = 'a day';
  else if (d < 26) text = amount(d, 'day', 'a day');
  else if (d < 45) text = 'a month';
  else if (d < 320) text = amount(d / 30.4, 'month', 'a month');
  else if (d < 548) text = 'a year';
  else text = amount(d / 365, 'year', 'a year');
  return diffMs >= 0 ? `in ${text}` : `${text} ago`;
}

/**
 * Discord markdown to plain text: escapes (`\*`) become the literal character, `**bold**` loses its
 * markers (or turns bold on a terminal), mentions become @name, timestamps readable times, and
 * zero-width characters (used to neutralise mentions) disappear. Text inside `code` is left as typed.
 */
export function renderMarkdown(text: string, ctx: RenderContext): string {
  const style = ctx.style ?? plainStyle;
  const lines = text.split('\n').map((line) => {
    let prefix = '';
    let rest = line;
    const quote = /^> ?/.exec(rest);
    if (quote) {
      prefix = '│ ';
      rest = rest.slice(quote[0].length);
    }
    const subtext = /^-# /.exec(rest);
    if (subtext) rest = rest.slice(subtext[0].length);
    return prefix + renderInline(rest, ctx, style);
  });
  return lines.join('\n');
}

const TOKEN =
  /\\([!-/:-@[-`{-~])|<t:(-?\d+)(?::([tTdDfFR]))?>|<@!?(\d{15,21})>|<@&(\d{15,21})>|<#(\d{15,21})>|`([^`]+)`|\*\*|__|~~|\|\||\*/g;

type Piece = string | { marker: string };

function renderInline(text: string, ctx: RenderContext, style: Style): string {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    pieces.push(text.slice(last, match.index));
    last = match.index + match[0].length;
    const [token, escaped, unix, timeStyle, userId, roleId, channelId, code] = match;
    if (escaped !== undefined) pieces.push(escaped);
    else if (unix !== undefined) pieces.push(formatDiscordTime(new Date(Number(unix) * 1000), timeStyle, ctx.now));
    else if (userId !== undefined) pieces.push(`@${ctx.users?.get(userId) ?? userId}`);
    else if (roleId !== undefined) pieces.push(`@${ctx.roles?.get(roleId) ?? roleId}`);
    else if (channelId !== undefined) pieces.push(`#${ctx.channels?.get(channelId) ?? channelId}`);
    else if (code !== undefined) pieces.push(code);
    else pieces.push({ marker: token });
  }
  pieces.push(text.slice(last));

  // Markers pair up per kind; paired ones are formatting (bold is kept on a terminal), and one
  // left without a partner is shown as typed, as Discord does.
  const paired = new Set<number>();
  const openAt = new Map<string, number>();
  pieces.forEach((piece, i) => {
    if (typeof piece === 'string') return;
    const open = openAt.get(piece.marker);
    if (open === undefined) openAt.set(piece.marker, i);
    else {
      paired.add(open).add(i);
      openAt.delete(piece.marker);
    }
  });
  let out = '';
  let bold: string | undefined;
  pieces.forEach((piece, i) => {
    let add = '';
    if (typeof piece === 'string') add = piece;
    else if (!paired.has(i)) add = piece.marker;
    else if (piece.marker === '**') {
      if (bold === undefined) bold = '';
      else {
        out += style.bold(bold);
        bold = undefined;
      }
      return;
    }
    if (bold !== undefined) bold += add;
    else out += add;
  });
  return out.replace(ZERO_WIDTH, '');
}

/** Length as a terminal shows it: ANSI codes take no room, wide (CJK) characters take two. */
export function displayWidth(text: string): number {
  let width = 0;
  // Strips the ANSI colour codes this file adds, to measure the width a terminal shows.
  // eslint-disable-next-line no-control-regex -- ESC is the point of this pattern
  for (const ch of text.replace(/\x1b\[[0-9;]*m/g, '')) {
    const cp = ch.codePointAt(0)!;
    width +=
      (cp >= 0x1100 && cp <= 0x115f) ||
      (cp >= 0x2e80 && cp <= 0xa4cf) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0x1f300 && cp <= 0x1faff)
        ? 2
        : 1;
  }
  return width;
}

/** Word-wraps one paragraph to `width` columns; a word longer than a line is cut. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    // A quoted line keeps its bar on every wrapped line.
    const bar = paragraph.startsWith('│ ') ? '│ ' : '';
    const words = paragraph.slice(bar.length).split(' ');
    const room = Math.max(10, width - bar.length);
    let line = '';
    for (const word of words) {
      if (line === '') line = word;
      else if (displayWidth(line) + 1 + displayWidth(word) <= room) line += ` ${word}`;
      else {
        out.push(bar + line);
        line = word;
      }
      while (displayWidth(line) > room) {
        const chars = [...line];
        out.push(bar + chars.slice(0, room).join(''));
        line = chars.slice(room).join('');
      }
    }
    out.push(bar + line);
  }
  return out;
}

/** Text Discord shows without markdown (footers, author names, labels, titles of forms). */
function plain(text: unknown): string {
  return String(text ?? '').replace(ZERO_WIDTH, '');
}

function indentAll(lines: string[], prefix: string): string[] {
  return lines.map((line) => (line === '' ? prefix.trimEnd() : prefix + line));
}

interface EmbedField {
  name?: string;
  value?: string;
  inline?: boolean;
}

function renderEmbed(embed: Record<string, any>, ctx: RenderContext, width: number): string[] {
  const style = ctx.style ?? plainStyle;
  const bar = style.accent('┃') + ' ';
  const inner = width - 2;
  const lines: string[] = [];
  if (embed.author?.name) lines.push(...wrap(plain(embed.author.name), inner));
  if (embed.title) lines.push(...wrap(style.bold(renderMarkdown(String(embed.title), ctx)), inner));
  if (embed.description) lines.push(...wrap(renderMarkdown(String(embed.description), ctx), inner));

  const fields: EmbedField[] = Array.isArray(embed.fields) ? embed.fields : [];
  let row: string[] = [];
  const flush = () => {
    if (row.length === 0) return;
    // Inline fields share a line when they fit, as they sit side by side in the client.
    let line = '';
    for (const cell of row) {
      const next = line === '' ? cell : `${line}   ${cell}`;
      if (line !== '' && displayWidth(next) > inner) {
        lines.push(...wrap(line, inner));
        line = cell;
      } else line = next;
    }
    lines.push(...wrap(line, inner));
    row = [];
  };
  if (fields.length > 0 && lines.length > 0) lines.push('');
  for (const field of fields) {
    const name = renderMarkdown(String(field.name ?? ''), ctx);
    const value = renderMarkdown(String(field.value ?? ''), ctx);
    if (field.inline) {
      row.push(`${style.dim(`${name}:`)} ${value.split('\n').join(', ')}`);
      continue;
    }
    flush();
    if (value.includes('\n') || displayWidth(name) + 2 + displayWidth(value) > inner) {
      lines.push(style.dim(`${name}:`));
      lines.push(...indentAll(wrap(value, inner - 2), '  '));
    } else lines.push(`${style.dim(`${name}:`)} ${value}`);
  }
  flush();

  const footer: string[] = [];
  if (embed.footer?.text) footer.push(plain(embed.footer.text));
  if (embed.timestamp) footer.push(formatDiscordTime(new Date(String(embed.timestamp)), 'f', ctx.now));
  if (footer.length > 0) {
    lines.push(...wrap(style.dim(footer.join(' · ')), inner));
  }
  return lines.map((line) => (line === '' ? bar.trimEnd() : bar + line));
}

function renderButton(button: Record<string, any>, ctx: RenderContext): string {
  const style = ctx.style ?? plainStyle;
  const emoji = button.emoji?.name ? `${button.emoji.name} ` : '';
  const label = `[ ${emoji}${plain(button.label)}${button.url ? ' ↗' : ''} ]`;
  const notes = [button.disabled ? 'disabled' : '', button.url ? String(button.url) : ''].filter(Boolean);
  return button.disabled
    ? style.dim(`${label} (${notes.join(', ')})`)
    : notes.length
      ? `${label} ${style.dim(notes.join(', '))}`
      : label;
}

function renderComponentRows(components: any[], ctx: RenderContext, width: number): string[] {
  const lines: string[] = [];
  for (const row of components) {
    const children: any[] = row?.type === 1 && Array.isArray(row.components) ? row.components : [row];
    const cells = children.map((child) => {
      if (child?.type === 2) return renderButton(child, ctx);
      if (child?.type === 3) return `[ ${child.placeholder ?? 'Choose…'} ▾ ]`;
      return `[component type ${child?.type}]`;
    });
    lines.push(...wrap(cells.join('  '), width));
  }
  return lines;
}

export interface MessageRenderOptions {
  /** Who the message appears to come from (default: the author's name). */
  author?: string;
  /** Shown after the author, e.g. "answered in 40 ms". */
  note?: string;
}

/** A message as a member would see it: author line, content, embeds, buttons. */
export function renderMessage(
  message: Record<string, any>,
  ctx: RenderContext,
  options: MessageRenderOptions = {},
): string {
  const style = ctx.style ?? plainStyle;
  const width = ctx.width ?? 100;
  const body = width - 2;
  const author = options.author ?? message.author?.global_name ?? message.author?.username ?? 'bot';
  const head = [style.bold(String(author))];
  if ((Number(message.flags ?? 0) & MessageFlags.Ephemeral) !== 0) head.push(style.accent('(only you can see this)'));
  if (message.edited_timestamp) head.push(style.dim('(edited)'));
  if (options.note) head.push(style.dim(`· ${options.note}`));
  const lines: string[] = [head.join(' ')];
  if (typeof message.content === 'string' && message.content !== '') {
    lines.push(...indentAll(wrap(renderMarkdown(message.content, ctx), body), '  '));
  }
  for (const embed of Array.isArray(message.embeds) ? message.embeds : []) {
    lines.push(...indentAll(renderEmbed(embed, ctx, body), '  '));
  }
  if (Array.isArray(message.components) && message.components.length > 0) {
    lines.push(...indentAll(renderComponentRows(message.components, ctx, body), '  '));
  }
  if (lines.length === 1) lines.push(style.dim('  (an empty message)'));
  return lines.join('\n');
}

function describeInput(input: Record<string, any>): string {
  const limits: string[] = [];
  if (input.required !== false) limits.push('required');
  const min = input.min_length;
  const max = input.max_length;
  if (min !== undefined && max !== undefined) limits.push(`${min}–${max} characters`);
  else if (max !== undefined) limits.push(`up to ${max} characters`);
  else if (min !== undefined) limits.push(`at least ${min} characters`);
  limits.push(input.style === 2 ? 'several lines' : 'one line');
  return limits.join(', ');
}

function renderModalField(
  label: string | undefined,
  description: string | undefined,
  input: Record<string, any>,
  ctx: RenderContext,
  width: number,
): string[] {
  const style = ctx.style ?? plainStyle;
  const lines: string[] = [];
  const title = label ?? input.label ?? input.custom_id;
  if (input.type === 4) {
    lines.push(`${style.bold(String(title))} ${style.dim(`(${describeInput(input)})`)}`);
    if (description) lines.push(...indentAll(wrap(description, width - 2), '  '));
    const hint = input.value ? String(input.value) : input.placeholder ? String(input.placeholder) : '';
    const boxWidth = Math.max(20, Math.min(width - 6, 72));
    const shown = [...hint].slice(0, boxWidth - 1).join('');
    const fill = ' '.repeat(Math.max(0, boxWidth - displayWidth(shown)));
    lines.push(`  [ ${input.value ? shown : style.dim(shown)}${fill}]`);
  } else if (input.type === 3) {
    const required = input.required === false ? 'optional' : 'required';
    const pick = input.max_values > 1 ? `pick up to ${input.max_values}` : 'pick one';
    lines.push(`${style.bold(String(title))} ${style.dim(`(${required}, ${pick})`)}`);
    if (description) lines.push(...indentAll(wrap(description, width - 2), '  '));
    for (const option of Array.isArray(input.options) ? input.options : []) {
      const mark = option.default ? '(•)' : '( )';
      const text = `${mark} ${option.label}${option.description ? style.dim(` — ${option.description}`) : ''}`;
      lines.push(...indentAll(wrap(text, width - 2), '  '));
    }
  } else {
    lines.push(`${style.bold(String(title))} ${style.dim(`(component type ${input.type})`)}`);
  }
  return lines;
}

/** A modal (type 9 callback data) as the form a member would see. */
export function renderModal(modal: Record<string, any>, ctx: RenderContext): string {
  const style = ctx.style ?? plainStyle;
  const width = (ctx.width ?? 100) - 4;
  const bar = style.accent('┃') + ' ';
  const lines: string[] = [style.bold(`Form: ${plain(modal.title)}`)];
  for (const component of Array.isArray(modal.components) ? modal.components : []) {
    if (component?.type === 18 && component.component) {
      lines.push(...renderModalField(component.label, component.description, component.component, ctx, width));
    } else if (component?.type === 1 && Array.isArray(component.components)) {
      for (const input of component.components)
        lines.push(...renderModalField(undefined, undefined, input, ctx, width));
    } else if (component?.type === 10) {
      lines.push(...wrap(renderMarkdown(String(component.content ?? ''), ctx), width));
    }
  }
  lines.push(style.dim('[ Cancel ]  [ Submit ]'));
  return lines.map((line) => `  ${bar}${line}`).join('\n');
}
