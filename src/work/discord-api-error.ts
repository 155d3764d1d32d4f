import { createRequire } from 'node:module';
import type * as Rest from '@discordjs/rest';

// The class of the errors discord.js throws for Discord's refusals, from the copy of @discordjs/rest
// discord.js requires as CommonJS (an `import` would load the ES build, whose class `instanceof`
// would not match). Taken from here, the code that sorts failures loads without the client library.
export const { DiscordAPIError } = createRequire(import.meta.url)('@discordjs/rest') as typeof Rest;
export type DiscordAPIError = Rest.DiscordAPIError;
