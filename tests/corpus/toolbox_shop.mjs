// A shop in dynamodb-toolbox v2's idiom: one Table (PK/SK and an overloaded GSI1), entities
// customer, product, order and orderLine with the library's entity attribute (`_et`) and its
// timestamps (`_ct`, `_md`). Every item below is the `Item` of the library's own
// `PutItemCommand` builder (`.build(PutItemCommand).item(...).params()`).
import { lib, libraryLabel, setClock, advanceClock, prng, pick, int, ulid, toDynamoJson, createTableInput, documentClient } from './lib.mjs';

const { Table, Entity, item, string, number, boolean, list, map, set, PutItemCommand } = lib('dynamodb-toolbox');

const TABLE = 'shop';

const ShopTable = new Table({
  documentClient: documentClient(),
  name: TABLE,
  partitionKey: { name: 'PK', type: 'string' },
  sortKey: { name: 'SK', type: 'string' },
  indexes: {
    GSI1: {
      type: 'global',
      partitionKey: { name: 'GSI1PK', type: 'string' },
      sortKey: { name: 'GSI1SK', type: 'string' },
    },
  },
});

const CustomerEntity = new Entity({
  name: 'customer',
  table: ShopTable,
  schema: item({
    customerId: string().key(),
    email: string(),
    name: string(),
    tier: string().enum('standard', 'gold', 'staff').default('standard'),
    marketingOptIn: boolean().default(false),
    address: map({ street: string(), city: string(), postcode: string() }).optional(),
  }).and((prev) => ({
    GSI1PK: string().link(({ email }) => `EMAIL#${email}`),
    GSI1SK: string().link(({ customerId }) => `CUSTOMER#${customerId}`),
  })),
  computeKey: ({ customerId }) => ({ PK: `CUSTOMER#${customerId}`, SK: `#PROFILE#${customerId}` }),
});

const ProductEntity = new Entity({
  name: 'product',
  table: ShopTable,
  schema: item({
    sku: string().key(),
    title: string(),
    category: string(),
    priceCents: number(),
    stock: number().default(0),
    colours: set(string()).optional(),
  }).and(() => ({
    GSI1PK: string().link(({ category }) => `CATEGORY#${category}`),
    GSI1SK: string().link(({ priceCents, sku }) => `PRICE#${String(priceCents).padStart(8, '0')}#${sku}`),
  })),
  computeKey: ({ sku }) => ({ PK: `PRODUCT#${sku}`, SK: `PRODUCT#${sku}` }),
});

const OrderEntity = new Entity({
  name: 'order',
  table: ShopTable,
  schema: item({
    customerId: string().key(),
    orderId: string().key(),
    status: string().enum('placed', 'paid', 'shipped', 'delivered', 'cancelled'),
    placedAt: string(),
    totalCents: number(),
    giftNote: string().optional(),
  }).and(() => ({
    GSI1PK: string().link(({ orderId }) => `ORDER#${orderId}`),
    GSI1SK: string().link(({ orderId }) => `ORDER#${orderId}`),
  })),
  computeKey: ({ customerId, orderId }) => ({ PK: `CUSTOMER#${customerId}`, SK: `ORDER#${orderId}` }),
});

const OrderLineEntity = new Entity({
  name: 'orderLine',
  table: ShopTable,
  schema: item({
    orderId: string().key(),
    sku: string().key(),
    quantity: number(),
    unitPriceCents: number(),
    discounts: list(map({ code: string(), cents: number() })).optional(),
  }).and(() => ({
    GSI1PK: string().link(({ sku }) => `PRODUCT#${sku}`),
    GSI1SK: string().link(({ orderId }) => `ORDER#${orderId}`),
  })),
  computeKey: ({ orderId, sku }) => ({ PK: `ORDER#${orderId}`, SK: `LINE#${sku}` }),
});


const NAMES = ['Amara Osei', 'Björn Halvorsen', 'Carmen Ruiz', 'Dmitri Sokolov', 'Esi Mensah',
  'Fiona Walsh', 'Gustavo Lima', 'Hiroshi Tanaka', 'Isla McKenzie', 'Jonas Weber', 'Kavya Iyer',
  'Luca Bianchi', 'Mei Lin', 'Nadia Rahman', 'Olu Adeyemi'];
const CITIES = [['Leeds', 'LS1 4AP'], ['Bristol', 'BS1 5TR'], ['York', 'YO1 7HH'], ['Bath', 'BA1 1LZ']];
const PRODUCTS = [
  ['MUG-12OZ-RED', 'Enamel mug, red', 'kitchen', 1450, ['red']],
  ['MUG-12OZ-BLU', 'Enamel mug, blue', 'kitchen', 1450, ['blue']],
  ['KNIFE-CHEF-8', "Chef's knife 8\"", 'kitchen', 8900, null],
  ['TEA-TOWEL-3PK', 'Tea towels (3)', 'kitchen', 1200, ['grey', 'ochre', 'sage']],
  ['LAMP-DESK-BRS', 'Desk lamp, brass', 'lighting', 6400, null],
  ['BULB-E27-2700', 'Bulb E27 2700K', 'lighting', 650, null],
  ['RUG-WOOL-160', 'Wool rug 160cm', 'textiles', 21900, ['natural', 'charcoal']],
  ['THROW-LINEN', 'Linen throw', 'textiles', 7800, ['sand']],
  ['PLANT-POT-M', 'Plant pot, medium', 'garden', 2200, ['terracotta']],
  ['SEEDS-HERB-6', 'Herb seeds (6)', 'garden', 900, null],
];

export function generate() {
  const rand = prng(7);
  const items = [];
  const put = (entity, value) => {
    const { Item } = entity.build(PutItemCommand).item(value).params();
    items.push(toDynamoJson(Item));
    advanceClock(int(rand, 30, 5400) * 1000);
  };

  setClock('2025-11-03T07:45:00.000Z');
  for (const [sku, title, category, priceCents, colours] of PRODUCTS) {
    put(ProductEntity, {
      sku, title, category, priceCents,
      stock: int(rand, 0, 250),
      ...(colours ? { colours: new Set(colours) } : {}),
    });
  }

  const customers = [];
  for (let i = 0; i < 24; i++) {
    const name = NAMES[i % NAMES.length] + (i >= NAMES.length ? ` ${i}` : '');
    const customerId = String(900 + int(rand, 1, 9) * 100 + i);
    const [city, postcode] = pick(rand, CITIES);
    const c = {
      customerId,
      email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`,
      name,
      tier: pick(rand, ['standard', 'standard', 'gold', 'staff']),
      marketingOptIn: rand() < 0.4,
      ...(i % 4 !== 3 ? { address: { street: `${int(rand, 1, 200)} High St`, city, postcode } } : {}),
    };
    customers.push(c);
    put(CustomerEntity, c);
  }

  for (let i = 0; i < 40; i++) {
    const customer = pick(rand, customers);
    const orderId = ulid(rand);
    const lines = [];
    const n = int(rand, 1, 4);
    for (let j = 0; j < n; j++) {
      const [sku, , , price] = PRODUCTS[(i + j * 3) % PRODUCTS.length];
      lines.push({ orderId, sku, quantity: int(rand, 1, 3), unitPriceCents: price });
    }
    if (i % 5 === 0) lines[0].discounts = [{ code: 'WELCOME10', cents: Math.round(lines[0].unitPriceCents / 10) }];
    const totalCents = lines.reduce((sum, l) => sum + l.quantity * l.unitPriceCents - (l.discounts?.[0].cents ?? 0), 0);
    put(OrderEntity, {
      customerId: customer.customerId,
      orderId,
      status: pick(rand, ['placed', 'paid', 'shipped', 'delivered', 'cancelled']),
      placedAt: new Date().toISOString(),
      totalCents,
      ...(i % 7 === 0 ? { giftNote: 'Happy birthday!' } : {}),
    });
    for (const line of lines) put(OrderLineEntity, line);
  }

  return {
    design: 'toolbox_shop',
    library: libraryLabel('dynamodb-toolbox'),
    table: createTableInput(TABLE, ['PK', 'SK'], { GSI1: ['GSI1PK', 'GSI1SK'] }),
    items,
  };
}
