import { createRequire } from 'node:module';
import type * as Builders from '@discordjs/builders';

// The message components the views build, from the copy of @discordjs/builders that discord.js itself
// requires as CommonJS (an `import` would load its ES build beside it; see embed-builder.ts). Taken
// from here rather than from discord.js, a view loads without the client library, and so do its tests.
const builders = createRequire(import.meta.url)('@discordjs/builders') as typeof Builders;

export const {
  ActionRowBuilder,
  ButtonBuilder,
  LabelBuilder,
  ModalBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
} = builders;
export type ActionRowBuilder<T extends Builders.AnyComponentBuilder> = Builders.ActionRowBuilder<T>;
export type ButtonBuilder = Builders.ButtonBuilder;
export type LabelBuilder = Builders.LabelBuilder;
export type ModalBuilder = Builders.ModalBuilder;
export type StringSelectMenuBuilder = Builders.StringSelectMenuBuilder;
export type TextInputBuilder = Builders.TextInputBuilder;
