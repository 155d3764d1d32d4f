import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ROOT } from '../../tools/bot-process.js';

// In a plain Node process (Jest keeps its own module registry): the built module, then discord.js.
const script = `
const { EmbedBuilder } = await import(${JSON.stringify(path.join(ROOT, 'dist/src/views/embed-builder.js'))});
const discord = await import('discord.js');
console.log(JSON.stringify({
  shared: Object.getPrototypeOf(discord.EmbedBuilder) === EmbedBuilder,
  json: new EmbedBuilder().setTitle('Vote active').setColor(0x57f287).toJSON(),
}));`;

describe("the views' EmbedBuilder", () => {
  it("is the class from discord.js's own copy of @discordjs/builders, not a second copy", () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ shared: true, json: { title: 'Vote active', color: 0x57f287 } });
  });
});
