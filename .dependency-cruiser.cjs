// The layers of the house, lowest first (docs/architecture.md draws them). A room (a folder of src/,
// or a top-level folder) imports only from rooms on a lower layer: never up, never sideways, never in
// a circle. `npm test` runs this before the suite, so an import that breaks the layering fails with
// the rule's name.
const LAYERS = [
  ['leaves', ['src/core', 'src/work', 'src/i18n', 'src/shards', 'src/secrets', 'src/streaks', 'src/leaderboard']],
  ['foundations', ['src/api', 'src/store', 'src/announce', 'src/rest-proxy', 'src/lists']],
  ['settings-and-views', ['src/config', 'src/views', 'src/mirror', 'src/sandbox']],
  ['bot', ['src/bot', 'src/guild-rules', 'src/servers', 'src/schedule', 'src/stats']],
  [
    'features',
    [
      'src/doctor',
      'src/feeds',
      'src/forwarding',
      'src/hosting',
      'src/http-interactions',
      'src/reminders',
      'src/roles',
      'src/vote-api',
      'src/webhooks',
    ],
  ],
  ['runtime', ['src/runtime']],
  // What a member changes or posts, whoever asks: /setup's changes and the one reply path.
  ['changes', ['src/setup', 'src/replies']],
  // Two ways in, side by side: Discord's interactions and the web dashboard call the same changes.
  ['ways-in', ['src/interactions', 'src/dashboard']],
  // tools/: the Discord stand-in, the playground, the demo and the helpers tests and the bench share.
  ['entry-points', ['commands', 'src/processes', 'tools']],
  ['bench', ['bench']],
];

const pattern = (rooms) => `^(${rooms.join('|')})/`;
const above = (index) => LAYERS.slice(index + 1).flatMap(([, rooms]) => rooms);

const upward = LAYERS.slice(0, -1).map(([name, rooms], index) => ({
  name: `no-import-up-from-${name}`,
  comment: `${rooms.join(', ')} may import only from lower layers, not from ${above(index).join(', ')}`,
  severity: 'error',
  from: { path: pattern(rooms) },
  to: { path: pattern(above(index)) },
}));

const sideways = LAYERS.filter(([, rooms]) => rooms.length > 1).map(([name, rooms]) => ({
  name: `no-import-sideways-in-${name}`,
  comment: `rooms on one layer (${rooms.join(', ')}) do not import each other: one of them belongs lower`,
  severity: 'error',
  from: { path: pattern(rooms) },
  to: { path: pattern(rooms), pathNot: '^$1/' },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'files that import each other in a loop (type-only imports count)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-import-of-tests',
      comment: 'the bot, its tools and the bench never import test code',
      severity: 'error',
      from: { path: '^(src|commands|tools|bench)/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-import-of-tools-from-the-bot',
      comment: 'the bot never imports the developer tools (the Discord stand-in, the playground, the demo)',
      severity: 'error',
      from: { path: '^(src|commands)/' },
      to: { path: '^(tools|bench)/' },
    },
    ...upward,
    ...sideways,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
    doNotFollow: { path: '^(node_modules|test)/' },
  },
};
