import { applyRole } from '../../setup/role.js';
import { formOf } from '../form-body.js';
import { html, type Html } from '../html.js';
import { CHANNEL_FIELDS, channelsPage } from '../pages/channels.js';
import { PAGES } from '../pages/form.js';
import { channelChange, channelsInput } from './channel-choices.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GuildRoute, PageRoutes, Visit } from './kit.js';
import { chosen, save, saved } from './settings-change.js';

/** Channels and moderator roles: what the bot sees of each, changed through /setup channel's and /setup role's functions. */
export const channelsRoutes: PageRoutes = (app, kit) => {
  const { base } = kit.deps;
  const show = (
    request: FastifyRequest<GuildRoute>,
    reply: FastifyReply,
    v: Visit,
    notice: Html | null,
    status = 200,
  ) => kit.send(request, reply, v, 'channels', html`${notice}${channelsPage(channelsInput(base, v))}`, status);

  app.get<GuildRoute>(`/servers/:guildId/${PAGES.channels}`, kit.gates.read, async (request, reply) => {
    const v = await kit.visit(request, reply, true);
    return v ? show(request, reply, v, saved(request, v)) : reply;
  });

  app.post<GuildRoute>(`/servers/:guildId/${PAGES.channels}`, kit.gates.changeKeepsTyped, async (request, reply) => {
    const v = await kit.visit(request, reply, true);
    if (!v) return reply;
    const form = formOf(request);
    const change = () => {
      if (form[CHANNEL_FIELDS.moderatorAdd] !== undefined)
        return applyRole(base, v.target, { moderators: chosen(form[CHANNEL_FIELDS.moderatorAdd]) }, v.actor);
      if (form[CHANNEL_FIELDS.moderatorRemove] !== undefined)
        return applyRole(base, v.target, { remove: chosen(form[CHANNEL_FIELDS.moderatorRemove]) }, v.actor);
      return channelChange(base, form, v);
    };
    return save(request, reply, v, PAGES.channels, change, (notice, status) => show(request, reply, v, notice, status));
  });
};
