import { afterEach, describe, expect, it } from '@jest/globals';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  InteractionResponseType,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
} from 'discord.js';
import {
  attachmentBytes,
  DEFAULTS,
  MODERATOR_PERMISSIONS,
  OptionType,
  buttonClick,
  member,
  modalSubmit,
  nextSnowflake,
  slashCommand,
  startDiscordStandIn,
  type DiscordStandIn,
  type DiscordStandInOptions,
} from '../../tools/discord-standin/index.js';
import { holdClock } from '../support/held-clock.js';

let standIn: DiscordStandIn | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.destroy();
  await standIn?.close();
  client = undefined;
  standIn = undefined;
});

function newClient(stand: DiscordStandIn): Client {
  client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: stand.apiUrl } });
  return client;
}

/** A stand-in and a logged-in, ready client whose interactions go to `onInteraction`. */
async function connected(
  onInteraction: (interaction: Interaction) => Promise<unknown> | unknown,
  options: DiscordStandInOptions = {},
): Promise<{ stand: DiscordStandIn; bot: Client; received: Interaction[] }> {
  const stand = (standIn = await startDiscordStandIn(options));
  const bot = newClient(stand);
  const received: Interaction[] = [];
  bot.on(Events.InteractionCreate, (interaction) => {
    received.push(interaction);
    void Promise.resolve(onInteraction(interaction)).catch(() => {});
  });
  const ready = new Promise((resolve) => bot.once(Events.ClientReady, resolve));
  await bot.login(stand.token);
  await ready;
  return { stand, bot, received };
}

function reviewButtonRow(): ActionRowBuilder<ButtonBuilder> {
  return new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId('review-reply:rev_1').setLabel('Reply').setStyle(ButtonStyle.Primary),
  );
}

describe('the Discord stand-in', () => {
  it('logs an unmodified discord.js client in and fires ClientReady with the configured guild', async () => {
    const { stand, bot } = await connected(() => {});
    expect(bot.user?.id).toBe(stand.botUserId);
    expect(bot.guilds.cache.get(stand.guildId)?.channels.cache.has(stand.channelId)).toBe(true);
    expect(bot.guilds.cache.get(stand.guildId)?.members.me?.id).toBe(stand.botUserId);
    expect(stand.gatewaySessions).toBe(1);
    expect(stand.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /gateway/bot']);
  });

  it('delivers a slash command as a ChatInputCommandInteraction whose reply is a type 4 callback', async () => {
    const { stand, received } = await connected(async (interaction) => {
      if (interaction.isChatInputCommand()) {
        await interaction.reply({
          content: `votes of ${interaction.options.getUser('user')?.username}`,
          flags: MessageFlags.Ephemeral,
        });
      }
    });
    const target = member({ username: 'target_user' });
    const handle = stand.sendInteraction(
      slashCommand({
        name: 'votes',
        options: [{ name: 'user', type: OptionType.User, value: target.user.id }],
        resolvedUsers: [target],
      }),
    );

    const callback = await handle.firstCallback();
    expect(callback.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(callback.data.content).toBe('votes of target_user');
    const [interaction] = received;
    expect(interaction?.isChatInputCommand() && interaction.commandName).toBe('votes');
    expect(interaction?.isChatInputCommand() && interaction.options.getMember('user')).toBeTruthy();
    const message = await handle.waitForMessage();
    expect(message.content).toBe('votes of target_user');
    expect(message.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(message.author.id).toBe(stand.botUserId);
  });

  it('records deferReply and editReply, and waitForResponse returns the edited message', async () => {
    let release!: () => void;
    const working = new Promise<void>((resolve) => (release = resolve));
    const { stand } = await connected(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      await working;
      await interaction.editReply({ content: 'three votes', components: [reviewButtonRow()] });
    });
    const handle = stand.sendInteraction(slashCommand({ name: 'votes' }));

    // The deferral is in and the edit not yet sent: the wait must go past the deferral to the edit.
    const answering = handle.waitForMessage();
    await handle.waitFor((h) => h.callbacks.length === 1);
    release();
    const answer = await answering;
    expect(handle.callbacks.map((c) => c.type)).toEqual([5]);
    expect(handle.webhookCalls.map((c) => `${c.method} ${c.path.endsWith('/messages/@original')} ${c.status}`)).toEqual(
      ['PATCH true 200'],
    );
    expect(answer.content).toBe('three votes');
    expect(answer.components[0].components[0].custom_id).toBe('review-reply:rev_1');
    expect(answer.flags & 128).toBe(0);
  });

  it('delivers a button click on the bot’s message with its custom id, and update() is a type 7 callback', async () => {
    const { stand, received } = await connected(async (interaction) => {
      if (interaction.isChatInputCommand())
        await interaction.reply({ content: 'page 1', components: [reviewButtonRow()] });
      if (interaction.isButton()) await interaction.update({ content: 'page 2', components: [] });
    });
    const command = stand.sendInteraction(slashCommand({ name: 'votes' }));
    const first = await command.waitForMessage();

    const click = stand.sendInteraction(buttonClick({ customId: 'review-reply:rev_1', message: first }));
    await click.waitForResponse();

    const button = received[1];
    expect(button?.isButton() && button.customId).toBe('review-reply:rev_1');
    expect(button?.isButton() && button.message.id).toBe(first.id);
    expect(click.callbacks.map((c) => c.type)).toEqual([7]);
    expect(click.message()?.id).toBe(first.id);
    expect(command.message()?.content).toBe('page 2');
    expect(command.message()?.components).toEqual([]);
  });

  it('lets deferUpdate() and editReply() on a button edit the message the button is on', async () => {
    const { stand } = await connected(async (interaction) => {
      if (interaction.isChatInputCommand())
        await interaction.reply({ content: 'page 1', components: [reviewButtonRow()] });
      if (interaction.isButton()) {
        await interaction.deferUpdate();
        await interaction.editReply({ content: 'page 2' });
      }
    });
    const first = await stand.sendInteraction(slashCommand({ name: 'votes' })).waitForMessage();
    const click = stand.sendInteraction(buttonClick({ customId: 'review-reply:rev_1', message: first }));

    const edited = await click.waitForMessage();
    expect(click.callbacks.map((c) => c.type)).toEqual([6]);
    expect(edited.id).toBe(first.id);
    expect(edited.content).toBe('page 2');
    expect(edited.edited_timestamp).not.toBeNull();
  });

  it('answers showModal() with a type 9 callback and has discord.js parse a label-shaped modal submit', async () => {
    const submitted: Array<{ content: string; pinned: readonly string[] }> = [];
    const { stand } = await connected(async (interaction) => {
      if (interaction.isButton()) {
        await interaction.showModal(
          new ModalBuilder()
            .setCustomId('review-reply-submit:rev_1')
            .setTitle('Reply to review')
            .addLabelComponents(
              new LabelBuilder()
                .setLabel('Reply')
                .setTextInputComponent(
                  new TextInputBuilder().setCustomId('content').setStyle(TextInputStyle.Paragraph),
                ),
              new LabelBuilder()
                .setLabel('Pin it?')
                .setStringSelectMenuComponent(
                  new StringSelectMenuBuilder()
                    .setCustomId('pinned')
                    .addOptions({ label: 'Yes', value: 'yes' }, { label: 'No', value: 'no' }),
                ),
            ),
        );
      } else if (interaction.isModalSubmit()) {
        submitted.push({
          content: interaction.fields.getTextInputValue('content'),
          pinned: interaction.fields.getStringSelectValues('pinned'),
        });
        if (interaction.isFromMessage()) await interaction.update({ content: 'replied', components: [] });
      } else if (interaction.isChatInputCommand()) {
        await interaction.reply({ content: 'a review', components: [reviewButtonRow()] });
      }
    });
    const review = await stand.sendInteraction(slashCommand({ name: 'review' })).waitForMessage();
    const click = stand.sendInteraction(buttonClick({ customId: 'review-reply:rev_1', message: review }));

    const modal = await click.waitForModal();
    expect(click.callbacks.map((c) => c.type)).toEqual([9]);
    expect(modal.custom_id).toBe('review-reply-submit:rev_1');
    expect(modal.components[0].type).toBe(18);

    const submit = stand.sendInteraction(
      modalSubmit({
        customId: modal.custom_id,
        fields: { content: 'Thanks!' },
        selects: { pinned: ['yes'] },
        message: review,
      }),
    );
    await submit.waitForResponse();
    expect(
      submit.payload.data.components.map((c: { type: number; component: { type: number } }) => [
        c.type,
        c.component.type,
      ]),
    ).toEqual([
      [18, 4],
      [18, 3],
    ]);
    expect(submitted).toEqual([{ content: 'Thanks!', pinned: ['yes'] }]);
    expect(submit.callbacks.map((c) => c.type)).toEqual([7]);
  });

  it('has discord.js parse a legacy action-row modal submit as well', async () => {
    let content: string | undefined;
    const { stand } = await connected(async (interaction) => {
      if (!interaction.isModalSubmit()) return;
      content = interaction.fields.getTextInputValue('content');
      await interaction.reply({ content: 'ok', flags: MessageFlags.Ephemeral });
    });
    const submit = stand.sendInteraction(
      modalSubmit({ customId: 'review-reply-submit:rev_2', fields: { content: 'Legacy' }, shape: 'actionRow' }),
    );

    await submit.waitForResponse();
    expect(content).toBe('Legacy');
    expect(submit.payload.data.components[0].type).toBe(1);
  });

  it('refuses a second callback for one interaction with 40060, which discord.js rejects', async () => {
    const outcomes: PromiseSettledResult<unknown>[] = [];
    const { stand } = await connected(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      // Two replies raced without awaiting: discord.js only marks `replied` after the request returns.
      outcomes.push(...(await Promise.allSettled([interaction.reply('first'), interaction.reply('second')])));
    });
    const handle = stand.sendInteraction(slashCommand({ name: 'votes' }));

    await handle.waitFor((h) => h.rejectedCallbacks.length === 1);
    await stand.waitUntil(() => outcomes.length === 2);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(failure?.reason).toBeInstanceOf(DiscordAPIError);
    expect((failure?.reason as DiscordAPIError).code).toBe(40060);
    expect(handle.callbacks).toHaveLength(1);
    expect(handle.rejectedCallbacks[0]?.code).toBe(40060);
  });

  it('shows member permissions and roles as interaction.memberPermissions and interaction.member.roles', async () => {
    const { stand, received } = await connected((interaction) =>
      interaction.isRepliable() ? interaction.reply('seen') : undefined,
    );
    const extraRoleId = nextSnowflake();
    const moderator = member({ roles: [stand.moderatorRoleId, extraRoleId], permissions: MODERATOR_PERMISSIONS });
    await stand.sendInteraction(slashCommand({ name: 'votes', member: moderator })).waitForResponse();
    await stand.sendInteraction(slashCommand({ name: 'votes' })).waitForResponse();

    const [asModerator, asMember] = received;
    expect(asModerator?.memberPermissions?.has(PermissionFlagsBits.ManageGuild)).toBe(true);
    expect(asModerator?.inCachedGuild() && asModerator.member.permissions.has(PermissionFlagsBits.ManageGuild)).toBe(
      true,
    );
    expect(asMember?.memberPermissions?.has(PermissionFlagsBits.ManageGuild)).toBe(false);
    expect(asMember?.memberPermissions?.has(PermissionFlagsBits.SendMessages)).toBe(true);
    const roles = asModerator?.inCachedGuild() ? asModerator.member.roles.cache : undefined;
    expect(roles?.has(stand.moderatorRoleId)).toBe(true);
    expect(roles?.has(extraRoleId)).toBe(true);
    expect(asMember?.inCachedGuild() && asMember.member.roles.cache.has(stand.moderatorRoleId)).toBe(false);
    expect(asMember?.inCachedGuild() && asMember.member.permissions.has(PermissionFlagsBits.ManageGuild)).toBe(false);
  });

  it('lets an interaction from a guild the bot is not in reach the client without crashing it', async () => {
    const { stand, received } = await connected((interaction) =>
      interaction.isRepliable() ? interaction.reply('not here') : undefined,
    );
    const foreign = stand.sendInteraction(slashCommand({ name: 'votes', guildId: DEFAULTS.foreignGuildId }));

    await foreign.waitForResponse();
    expect(received[0]?.guildId).toBe(DEFAULTS.foreignGuildId);
    expect(received[0]?.guild).toBeNull();
    const after = await stand.sendInteraction(slashCommand({ name: 'votes' })).waitForMessage();
    expect(after.content).toBe('not here');
  });

  it('answers an unknown REST route with Discord’s 404 and records it', async () => {
    const { stand, bot } = await connected(() => {});
    const failure = await bot.rest.get('/no-such/route').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DiscordAPIError);
    expect((failure as DiscordAPIError).status).toBe(404);
    expect(stand.unknownRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /no-such/route']);
  });

  it('makes login() reject when the token is wrong', async () => {
    const stand = (standIn = await startDiscordStandIn());
    await expect(newClient(stand).login('not-the-token')).rejects.toThrow(/token/i);
    expect(stand.gatewaySessions).toBe(0);
  });

  it('makes login() reject when GET /gateway/bot is set to answer 401', async () => {
    const stand = (standIn = await startDiscordStandIn());
    stand.setGatewayBotStatus(401);
    await expect(newClient(stand).login(stand.token)).rejects.toThrow(/token/i);
  });

  it('resumes the session after dropGateway(4000) and still delivers and answers interactions', async () => {
    const { stand } = await connected((interaction) =>
      interaction.isRepliable() ? interaction.reply('still here') : undefined,
    );
    stand.dropGateway(4000);
    await stand.waitForResume();

    const answer = await stand.sendInteraction(slashCommand({ name: 'votes' })).waitForMessage();
    expect(stand.resumes).toBe(1);
    expect(stand.gatewaySessions).toBe(1);
    expect(answer.content).toBe('still here');
  });

  it('replays an interaction sent while the connection was dropped once the client resumes', async () => {
    const { stand } = await connected((interaction) =>
      interaction.isRepliable() ? interaction.reply('after the gap') : undefined,
    );
    stand.dropGateway();
    const handle = stand.sendInteraction(slashCommand({ name: 'votes' }));

    const answer = await handle.waitForMessage();
    expect(stand.resumes).toBe(1);
    expect(answer.content).toBe('after the gap');
  });

  it('refuses a first callback that comes after the interaction deadline with 10062', async () => {
    let failure: unknown;
    const { stand } = await connected(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      // The handler's work takes just past Discord's 3 s, on the stand-in's clock.
      clock.advance(3_001);
      await interaction.reply('too late').catch((error: unknown) => (failure = error));
    });
    // The stand-in times the deadline by performance.now: held from the dispatch on, moved by the handler.
    const clock = holdClock(['performance']);
    try {
      const handle = stand.sendInteraction(slashCommand({ name: 'votes' }));
      await handle.waitFor((h) => h.rejectedCallbacks.length === 1);
      await stand.waitUntil(() => failure !== undefined);
      expect((failure as DiscordAPIError).code).toBe(10062);
      expect(handle.callbacks).toHaveLength(0);
    } finally {
      clock.release();
    }
  });

  it('refuses a reply longer than 2,000 characters with Invalid Form Body', async () => {
    let failure: unknown;
    const { stand } = await connected(async (interaction) => {
      if (interaction.isChatInputCommand())
        await interaction.reply('x'.repeat(2001)).catch((error: unknown) => (failure = error));
    });
    const handle = stand.sendInteraction(slashCommand({ name: 'votes' }));

    await handle.waitFor((h) => h.rejectedCallbacks.length === 1);
    await stand.waitUntil(() => failure !== undefined);
    expect((failure as DiscordAPIError).code).toBe(50035);
    expect((failure as DiscordAPIError).message).toMatch(/content.*2000/s);
  });

  it('fills the deferred "thinking" message with the first followUp', async () => {
    const { stand } = await connected(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      await interaction.followUp({ content: 'done' });
    });
    const handle = stand.sendInteraction(slashCommand({ name: 'votes' }));

    const answer = await handle.waitForMessage();
    expect(answer.id).toBe(handle.message()?.id);
    expect(answer.content).toBe('done');
    expect(answer.flags).toBe(MessageFlags.Ephemeral);
    expect(handle.followUps()).toEqual([]);
  });

  it('keeps the bytes of files sent with a reply, an edit and a follow-up (payload_json + files[n])', async () => {
    const file = (name: string) => ({
      attachment: Buffer.from(`bytes of ${name}`),
      name,
      description: `about ${name}`,
    });
    const { stand } = await connected(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      if (interaction.commandName === 'reply') return interaction.reply({ content: 'one', files: [file('a.png')] });
      await interaction.deferReply();
      await interaction.editReply({ content: 'two', files: [file('b.png'), file('c.png')] });
      await interaction.followUp({ content: 'three', files: [file('d.png')] });
    });
    const replied = await stand.sendInteraction(slashCommand({ name: 'reply' })).waitForMessage();
    expect(replied.attachments.map((a) => [a.filename, a.description, attachmentBytes(a)?.toString()])).toEqual([
      ['a.png', 'about a.png', 'bytes of a.png'],
    ]);
    // The bytes stay off the JSON the stand-in answers with, as Discord's messages have none.
    expect(JSON.stringify(replied)).not.toContain('bytes of');

    const handle = stand.sendInteraction(slashCommand({ name: 'edit' }));
    await handle.waitFor((h) => h.followUps().length === 1);
    const edited = handle.message()!;
    expect(edited.attachments.map((a) => [a.filename, attachmentBytes(a)?.toString(), a.size])).toEqual([
      ['b.png', 'bytes of b.png', 14],
      ['c.png', 'bytes of c.png', 14],
    ]);
    expect(attachmentBytes(handle.followUps()[0]!.attachments[0])?.toString()).toBe('bytes of d.png');
  });

  it('answers a reply with_response with the created message', async () => {
    let content: string | null | undefined;
    const { stand } = await connected(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const response = await interaction.reply({ content: 'with response', withResponse: true });
      content = response.resource?.message?.content;
    });
    await stand.sendInteraction(slashCommand({ name: 'votes' })).waitForResponse();

    await stand.waitUntil(() => content !== undefined);
    expect(content).toBe('with response');
    expect(stand.requests.find((r) => r.path.endsWith('/callback'))?.query.with_response).toBe('true');
  });

  it('registers guild commands by bulk overwrite, returns them with ids, and uses those ids in interactions', async () => {
    const { stand, bot, received } = await connected((interaction) =>
      interaction.isRepliable() ? interaction.reply('ok') : undefined,
    );
    await bot.application!.commands.set([{ name: 'votes', description: 'Show recent votes' }], stand.guildId);

    const [registered] = stand.registeredCommands();
    expect(registered).toMatchObject({ name: 'votes', application_id: stand.applicationId, guild_id: stand.guildId });
    expect(registered?.id).toMatch(/^\d{17,19}$/);
    await stand.sendInteraction(slashCommand({ name: 'votes' })).waitForResponse();
    expect(received[0]?.isChatInputCommand() && received[0].commandId).toBe(registered?.id);
  });

  it('serves channel overwrites and the bot member’s role, from which discord.js computes the bot’s permissions', async () => {
    const { stand, bot } = await connected(() => {});
    stand.setChannelOverwrites([{ role: stand.botRoleId, deny: PermissionFlagsBits.SendMessages }]);
    const guild = await bot.guilds.fetch(stand.guildId);
    const me = await guild.members.fetch({ user: stand.botUserId, force: true });
    expect([...me.roles.cache.keys()]).toContain(stand.botRoleId);
    const channel = await bot.channels.fetch(stand.channelId, { force: true });
    if (!channel || !('permissionsFor' in channel)) throw new Error('the stand-in channel should be a guild channel');
    const permissions = channel.permissionsFor(me);
    expect(permissions.has(PermissionFlagsBits.ViewChannel)).toBe(true);
    expect(permissions.has(PermissionFlagsBits.SendMessages)).toBe(false);

    stand.setChannelOverwrites([]);
    const cleared = await bot.channels.fetch(stand.channelId, { force: true });
    expect(
      cleared && 'permissionsFor' in cleared && cleared.permissionsFor(me).has(PermissionFlagsBits.SendMessages),
    ).toBe(true);
  });

  it('keeps the guild’s registered commands as set, as commands gone stale would be', async () => {
    const stand = (standIn = await startDiscordStandIn());
    stand.setRegisteredCommands([{ name: 'ping', description: 'old', type: 1 }]);
    const response = await fetch(
      `${stand.apiUrl}/v10/applications/${stand.applicationId}/guilds/${stand.guildId}/commands`,
      {
        headers: { authorization: `Bot ${stand.token}` },
      },
    );
    const commands = (await response.json()) as Array<Record<string, unknown>>;
    expect(commands).toEqual([
      expect.objectContaining({ name: 'ping', description: 'old', id: expect.stringMatching(/^\d{17,19}$/) }),
    ]);
  });

  it('records messages the bot posts in a channel', async () => {
    const { stand, bot } = await connected(() => {});
    const channel = await bot.channels.fetch(stand.channelId);
    if (!channel?.isSendable()) throw new Error('the stand-in channel should be sendable');
    await channel.send({ content: 'a new review', components: [reviewButtonRow()] });

    const [posted] = stand.channelMessages(stand.channelId);
    expect(posted?.content).toBe('a new review');
    expect(posted?.author.id).toBe(stand.botUserId);
    expect(stand.requests.at(-1)?.headers.authorization).toBe(`Bot ${stand.token}`);
  });
});
