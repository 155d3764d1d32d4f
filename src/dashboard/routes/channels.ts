import { applyRole } from '../../setup/role.js';
import { html } from '../html.js';
import { CHANNEL_FIELDS, channelsPage } from '../pages/channels.js';
import { PAGES } from '../pages/form.js';
import { channelChange, channelsInput } from './channel-choices.js';
import type { PageRoutes } from './kit.js';
import { chosen, settingsPageRoutes, type SettingsPage } from './settings-change.js';

const show: SettingsPage = ({ kit, request, reply, v }, notice, status = 200) =>
  kit.send(request, reply, v, 'channels', html`${notice}${channelsPage(channelsInput(kit.deps.base, v))}`, status);

/** Channels and moderator roles: what the bot sees of each, changed through /setup channel's and /setup role's functions. */
export const channelsRoutes: PageRoutes = (app, kit) =>
  settingsPageRoutes(app, kit, PAGES.channels, {
    show,
    change:
      ({ kit: { deps }, v }, form) =>
      () => {
        if (form[CHANNEL_FIELDS.moderatorAdd] !== undefined)
          return applyRole(deps.base, v.target, { moderators: chosen(form[CHANNEL_FIELDS.moderatorAdd]) }, v.actor);
        if (form[CHANNEL_FIELDS.moderatorRemove] !== undefined)
          return applyRole(deps.base, v.target, { remove: chosen(form[CHANNEL_FIELDS.moderatorRemove]) }, v.actor);
        return channelChange(deps.base, form, v);
      },
  });
