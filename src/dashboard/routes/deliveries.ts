import { listName } from '../../lists/index.js';
import { deliveryFixes } from '../../setup/delivery-fixes.js';
import { environmentSites } from '../../setup/listing.js';
import { PAGES } from '../pages/form.js';
import { deliveriesPage } from '../pages/deliveries.js';
import type { GuildRoute, PageRoutes } from './kit.js';

/** The delivery log: the server's last webhook deliveries, as /setup status shows them, and how to mend a refused one. */
export const deliveriesRoutes: PageRoutes = (app, kit) => {
  const { deps } = kit;
  app.get<GuildRoute>(`/servers/:guildId/${PAGES.deliveries}`, kit.gates.read, async (request, reply) => {
    const v = await kit.visit(request, reply, false);
    if (!v) return reply;
    const { guild, i18n } = v;
    const lines = await deps.base.setup.recentDeliveries(guild.id).catch((err: unknown) => {
      deps.logger.warn({ err, guildId: guild.id }, 'could not read the delivery log for the dashboard');
      return 'unreadable' as const;
    });
    // A wrong token is fixed on the credentials page here, named in the member's words.
    const fixes = deliveryFixes(lines, i18n, i18n.t('dashboard.nav.listings'), environmentSites(deps.base, guild.id));
    return kit.send(request, reply, v, 'deliveries', deliveriesPage({ lines, fixes, listName, i18n }));
  });
};
