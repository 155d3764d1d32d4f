// The bot a guild owner would write from the discord.js guide: one file, one client, the guide's
// interactionCreate handler, and a plain fetch to the service on every /vote. The bench runs it
// against the same stand-in, sandbox and load as the real bot. Deliberately naive, never slowed down.
import { createServer } from 'node:http';
import {
  Client,
  EmbedBuilder,
  Events,
  GatewayIntentBits,
  MessageFlags,
  type ChatInputCommandInteraction,
} from 'discord.js';

const {
  DISCORD_TOKEN,
  DISCORD_API_URL,
  SERVICE_BASE_URL,
  SERVICE_API_KEY,
  SERVICE_APP_ID,
  WEBHOOK_PORT,
  WEBHOOK_TOKEN,
  REVIEW_CHANNEL_ID,
  VOTE_CHANNEL_ID,
} = process.env;

const client = new Client({
  intents: [GatewayIntentBits.Guilds],
  ...(DISCORD_API_URL ? { rest: { api: DISCORD_API_URL } } : {}),
});

async function vote(interaction: ChatInputCommandInteraction): Promise<void> {
  const user = interaction.options.getUser('member') ?? interaction.user;
  const response = await fetch(`${SERVICE_BASE_URL}/votes/${user.id}`, {
    headers: { 'Service-Api-Key': SERVICE_API_KEY ?? '', 'Service-App-Id': SERVICE_APP_ID ?? '' },
  });
  const data = (await response.json()) as { voted?: boolean; remaining?: number | null };

  const embed = new EmbedBuilder().setColor(data.voted ? 0x57f287 : 0x5865f2);
  if (data.voted) {
    const runsOut = Math.floor((Date.now() + (data.remaining ?? 0)) / 1000);
    embed.setTitle('Vote active').setDescription(`<@${user.id}> has voted. The vote runs out <t:${runsOut}:R>.`);
  } else {
    embed.setTitle('No active vote').setDescription(`<@${user.id}> has no active vote right now.`);
  }
  const isPublic = interaction.options.getBoolean('public') ?? false;
  await interaction.reply({ embeds: [embed], ...(isPublic ? {} : { flags: MessageFlags.Ephemeral }) });
}

const commands = new Map([['vote', vote]]);

client.once(Events.ClientReady, (readyClient) => {
  console.log(`Ready! Logged in as ${readyClient.user.tag}`);
});

client.on(Events.InteractionCreate, async (interaction) => {
  if (!interaction.isChatInputCommand()) return;
  const command = commands.get(interaction.commandName);
  if (!command) {
    console.error(`No command matching ${interaction.commandName} was found.`);
    return;
  }
  try {
    await command(interaction);
  } catch (error) {
    console.error(error);
    if (interaction.replied || interaction.deferred) {
      await interaction.followUp({
        content: 'There was an error while executing this command!',
        flags: MessageFlags.Ephemeral,
      });
    } else {
      await interaction.reply({
        content: 'There was an error while executing this command!',
        flags: MessageFlags.Ephemeral,
      });
    }
  }
});

// The webhook receiver a tutorial would write: check the token, post to the channel, then answer.
// No store, no dedupe, no batching: each delivery is one message, and the 200 waits on Discord.
if (WEBHOOK_PORT) {
  createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', async () => {
      if (req.headers.authorization !== WEBHOOK_TOKEN) return void res.writeHead(401).end();
      try {
        const event = JSON.parse(body) as { event: string; user?: { id: string }; double?: boolean; id?: string };
        const channelId = event.event === 'vote' ? VOTE_CHANNEL_ID : REVIEW_CHANNEL_ID;
        const channel = channelId ? await client.channels.fetch(channelId) : null;
        if (channel?.isSendable()) {
          await channel.send(
            event.event === 'vote'
              ? `<@${event.user?.id}> voted${event.double ? ' (double vote)' : ''}`
              : `New review ${event.id}`,
          );
        }
        res.writeHead(200).end();
      } catch (error) {
        console.error(error);
        res.writeHead(500).end();
      }
    });
  }).listen(Number(WEBHOOK_PORT), '127.0.0.1');
}

client.login(DISCORD_TOKEN);
