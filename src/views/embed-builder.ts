import { createRequire } from 'node:module';
import type * as Builders from '@discordjs/builders';

// discord.js requires @discordjs/builders as CommonJS; an `import` here would load its ES build
// beside it, a second copy of the package and of its validators (~1.2 MB of heap from the start).
// The views want its plain EmbedBuilder: discord.js's own subclass converts every field on the way in.
const builders = createRequire(import.meta.url)('@discordjs/builders') as typeof Builders;

export const EmbedBuilder = builders.EmbedBuilder;
export type EmbedBuilder = Builders.EmbedBuilder;
