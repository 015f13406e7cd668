// A game leaderboard in OneTable's idiom: one schema (models Game, Player, Match and Score),
// value templates `${...}` with `:` separators (and `#` inside the score sort key), ISO dates
// and timestamps, OneTable's `_type` attribute, and one GSI (gs1). Every item below is the
// `Item` of the command OneTable builds for `Model.create(..., {execute: false})`; the table is
// OneTable's own `getTableDefinition()`.
import { lib, libraryLabel, setClock, advanceClock, prng, uuid, pick, int, ulid, dynamoClient } from './lib.mjs';

const { Table } = lib('dynamodb-onetable');

const TABLE = 'arcade';

const GameSchema = {
  format: 'onetable:1.1.0',
  version: '0.1.0',
  indexes: {
    primary: { hash: 'pk', sort: 'sk' },
    gs1: { hash: 'gs1pk', sort: 'gs1sk', project: 'all' },
  },
  models: {
    Game: {
      pk: { type: String, value: 'game:${gameId}' },
      sk: { type: String, value: 'game:' },
      gameId: { type: String, required: true },
      title: { type: String, required: true },
      genre: { type: String, required: true, enum: ['puzzle', 'racing', 'shooter', 'strategy'] },
      maxPlayers: { type: Number, default: 4 },
      gs1pk: { type: String, value: 'genre:${genre}' },
      gs1sk: { type: String, value: 'game:${title}' },
    },
    Player: {
      pk: { type: String, value: 'player:${playerId}' },
      sk: { type: String, value: 'player:' },
      playerId: { type: String, required: true },
      handle: { type: String, required: true },
      country: { type: String },
      rating: { type: Number, default: 1200 },
      joined: { type: Date, required: true },
      gs1pk: { type: String, value: 'handle:${handle}' },
      gs1sk: { type: String, value: 'player:' },
    },
    Match: {
      pk: { type: String, value: 'game:${gameId}' },
      sk: { type: String, value: 'match:${startedAt}:${matchId}' },
      gameId: { type: String, required: true },
      matchId: { type: String, required: true },
      startedAt: { type: Date, required: true },
      map: { type: String },
      players: { type: Array, items: { type: String } },
      gs1pk: { type: String, value: 'match:${matchId}' },
      gs1sk: { type: String, value: 'match:' },
    },
    Score: {
      pk: { type: String, value: 'match:${matchId}' },
      sk: { type: String, value: 'score:${playerId}' },
      matchId: { type: String, required: true },
      playerId: { type: String, required: true },
      gameId: { type: String, required: true },
      points: { type: Number, required: true },
      placing: { type: Number, required: true },
      gs1pk: { type: String, value: 'player:${playerId}' },
      gs1sk: { type: String, value: 'score#${gameId}#${points:6:0}' },
    },
  },
  params: { isoDates: true, timestamps: true },
};

const table = new Table({ client: dynamoClient(), name: TABLE, schema: GameSchema, partial: false });

const TITLES = [['Hexfall', 'puzzle'], ['Night Circuit', 'racing'], ['Orbital Siege', 'shooter'], ['Grain & Empire', 'strategy']];
const HANDLES = ['zeroCool', 'mika_r', 'Tundra', 'pixelpilot', 'OrbWeaver', 'kestrel', 'lumen',
  'rook-7', 'NovaJin', 'quietstorm', 'Bramble', 'dx_vega', 'saltflat', 'Ember', 'wren', 'glitchbit',
  'hollow', 'Marigold'];
const MAPS = ['Dunes', 'Harbour', 'Foundry', 'Glacier'];


function shuffled(rand, list) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export async function generate() {
  const rand = prng(42);
  const items = [];
  const create = async (model, props) => {
    const cmd = await table.getModel(model).create(props, { execute: false, log: false });
    items.push(cmd.Item);
    advanceClock(int(rand, 20, 3600) * 1000);
  };

  setClock('2026-02-14T18:00:00.000Z');
  const games = TITLES.map(([title, genre], i) => ({ gameId: `g${String(i + 1).padStart(3, '0')}`, title, genre }));
  for (const g of games) await create('Game', { ...g, maxPlayers: pick(rand, [2, 4, 8]) });

  const players = [];
  for (const handle of HANDLES) {
    const p = { playerId: uuid(rand), handle, rating: int(rand, 900, 2400), joined: new Date(Date.UTC(2025, int(rand, 0, 11), int(rand, 1, 28))) };
    if (rand() < 0.7) p.country = pick(rand, ['GB', 'DE', 'JP', 'BR', 'KE', 'CA']);
    players.push(p);
    await create('Player', p);
  }

  for (let i = 0; i < 20; i++) {
    const game = pick(rand, games);
    const matchId = ulid(rand);
    const seats = shuffled(rand, players).slice(0, int(rand, 2, 4));
    await create('Match', {
      gameId: game.gameId,
      matchId,
      startedAt: new Date(),
      map: pick(rand, MAPS),
      players: seats.map((p) => p.playerId),
    });
    const points = seats.map(() => int(rand, 0, 50000));
    const order = [...points].sort((a, b) => b - a);
    for (const [k, p] of seats.entries()) {
      await create('Score', {
        matchId,
        playerId: p.playerId,
        gameId: game.gameId,
        points: points[k],
        placing: order.indexOf(points[k]) + 1,
      });
    }
  }

  return {
    design: 'onetable_game',
    library: libraryLabel('dynamodb-onetable'),
    table: table.getTableDefinition(),
    items,
  };
}
