import { describe, expect, it } from '@jest/globals';
import { CHANNEL_FIELDS, channelsPage, type ChannelsPageInput } from '../../../../src/dashboard/pages/channels.js';
import { REWARD_FIELDS, rewardsPage } from '../../../../src/dashboard/pages/rewards.js';
import { translatorFor } from '../../../../src/i18n/index.js';
import { expectEveryFormGuarded, flat, formsOf, HOSTILE, HOSTILE_ESCAPED } from '../../../support/html-forms.js';

const GUILD = '100000000000000002';
const CSRF = 'csrf-token-456';
const i18n = translatorFor('en-US');

const base: ChannelsPageInput = {
  guildId: GUILD,
  csrf: CSRF,
  i18n,
  channels: [
    { id: '11', name: 'votes', position: 2, postable: true },
    { id: '12', name: HOSTILE, position: 1, postable: true },
    { id: '13', name: 'voice-room', position: 0, postable: false },
  ],
  roles: [
    { id: '21', name: 'Voter', position: 3 },
    { id: '22', name: `Mods ${HOSTILE}`, position: 5 },
  ],
  current: { votes: '11' },
  channelProblems: { votes: ['the bot lacks Embed Links in #votes'] },
  moderatorRoleIds: ['22'],
};

describe('the channels and roles page', () => {
  const page = flat(channelsPage(base).text);

  it("offers each feature's channel from the text channels the bot sees, the current one selected", () => {
    const votes = formsOf(page).find((f) => f.body.includes(`name="${CHANNEL_FIELDS.kind}" value="votes"`))!;
    expect(votes.body).toContain('<option value="11" selected>#votes</option>');
    expect(votes.body).not.toContain('voice-room');
    // In Discord's order: by position.
    expect(votes.body.indexOf('value="12"')).toBeLessThan(votes.body.indexOf('value="11"'));
  });

  it('shows the permission problems guild-rules found under the channel they are about', () => {
    expect(page).toContain('✘ the bot lacks Embed Links in #votes');
  });

  it('escapes a channel and a role named like markup', () => {
    expect(page).toContain(`#${HOSTILE_ESCAPED}`);
    expect(page).toContain(`@Mods ${HOSTILE_ESCAPED}`);
    expect(page).not.toContain(HOSTILE);
  });

  it('lists the moderator roles with a remove form each, and offers the others to add', () => {
    const forms = formsOf(page);
    expect(forms.some((f) => f.body.includes(`name="${CHANNEL_FIELDS.moderatorRemove}" value="22"`))).toBe(true);
    const add = forms.find((f) => f.body.includes(`name="${CHANNEL_FIELDS.moderatorAdd}"`))!;
    expect(add.body).toContain('value="21"');
    expect(add.body).not.toContain('value="22"');
  });

  it('puts the CSRF token in every form: four channels, one moderator removal, one addition', () => {
    expect(expectEveryFormGuarded(page, GUILD, CSRF)).toBe(6);
  });

  it('shows a setting the environment fixes as its value, read-only, naming the variable that sets it', () => {
    const variables = [
      ['votes', 'VOTE_CHANNEL_ID'],
      ['moderatorRoleIds', 'MODERATOR_ROLE_IDS'],
    ] as const;
    const fixed = flat(channelsPage({ ...base, fixed: new Map(variables) }).text);
    expect(fixed).toContain('<strong>#votes</strong>');
    expect(fixed).toContain('Set by VOTE_CHANNEL_ID in the host&#39;s environment: change it there.');
    expect(fixed).toContain('Set by MODERATOR_ROLE_IDS in the host&#39;s environment');
    // No picker and no form for either: three channel forms and the moderator addition are left.
    expect(fixed).not.toContain('id="channel-votes"');
    expect(expectEveryFormGuarded(fixed, GUILD, CSRF)).toBe(3);
  });
});

describe('the rewards and reminders page', () => {
  const page = flat(
    rewardsPage({
      ...base,
      milestones: [{ roleId: '21', votes: 10, period: 'month', parked: 'access' }],
      graceHours: 12,
      voterRoleId: '22',
      roleProblems: { '22': ["@Mods is not below the bot's highest role"] },
      current: { reminders: '12' },
    }).text,
  );

  it('shows the voter role, the milestones, the streak window and the reminders channel as they are', () => {
    expect(page).toContain(`<option value="22" selected>@Mods ${HOSTILE_ESCAPED}</option>`);
    expect(page).toContain('@Voter: 10 votes in one calendar month (UTC), taken back when the month ends');
    expect(page).toContain('(paused: the bot lacks Manage Roles');
    expect(page).toContain(`name="${REWARD_FIELDS.graceHours}" min="0" max="168" step="1" value="12"`);
    expect(page).toContain(`<option value="12" selected>#${HOSTILE_ESCAPED}</option>`);
  });

  it('shows what keeps the bot from giving the voter role', () => {
    expect(page).toContain('✘ @Mods is not below the bot&#39;s highest role');
  });

  it('puts the CSRF token in every form: voter role, milestone removal and addition, streak, reminders', () => {
    expect(expectEveryFormGuarded(page, GUILD, CSRF)).toBe(5);
    expect(page).not.toContain(HOSTILE);
  });
});
