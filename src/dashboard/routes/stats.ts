import type { Guild } from 'discord.js';
import { translatorFor } from '../../i18n/index.js';
import { renderStats } from '../../stats/render-stats.js';
import { readStats, STATS_DEFAULT_DAYS } from '../../stats/stats-data.js';
import { html } from '../html.js';
import { PAGES } from '../pages/form.js';
import { statsPage } from '../pages/stats.js';
import type { GuildRoute, PageRoutes } from './kit.js';
import { notSetUp, withNotice } from './records-notice.js';

/** The stats: the numbers /stats reads, as tables, and the same picture. */
export const statsRoutes: PageRoutes = (app, kit) => {
  const statsOf = async (guild: Guild) => {
    const ctx = await kit.deps.context(guild.id);
    if (!ctx) return undefined;
    const [data, since] = await Promise.all([
      readStats(ctx.stats, ctx.now(), STATS_DEFAULT_DAYS),
      ctx.ledger.countingSince(),
    ]);
    return { data, countingSince: new Date(since) };
  };

  app.get<GuildRoute>(`/servers/:guildId/${PAGES.stats}`, kit.gates.read, async (request, reply) => {
    const v = await kit.visit(request, reply, false);
    if (!v) return reply;
    const stats = await statsOf(v.guild);
    const body = stats
      ? statsPage({ guildId: v.guild.id, ...stats, i18n: v.i18n })
      : withNotice(request, { refused: notSetUp(v.i18n) }, v.i18n, html``);
    return kit.send(request, reply, v, 'stats', body);
  });

  app.get<GuildRoute>(`/servers/:guildId/${PAGES.statsPicture}`, kit.gates.read, async (request, reply) => {
    const v = await kit.visit(request, reply, false);
    if (!v) return reply;
    const stats = await statsOf(v.guild);
    if (!stats) return reply.code(404).send();
    // The picture is the server's, as /stats draws it: in the server's language.
    const png = await renderStats(stats.data, translatorFor(v.guild.preferredLocale));
    return reply.type('image/png').header('cache-control', 'private, max-age=60').send(png);
  });
};
