// A task manager in ElectroDB's idiom: one Service ("task-manager") over one table, entities
// employee, office, project and task, composite keys of several attributes, and three
// collections on GSIs (workplaces, assignments, backlog). Every item below is the `Item` of
// ElectroDB's own `.put(...).params()`; nothing here spells a key.
import { lib, libraryLabel, setClock, advanceClock, prng, uuid, pick, int, toDynamoJson, createTableInput, documentClient } from './lib.mjs';

const { Entity, Service } = lib('electrodb');

const TABLE = 'task-manager';

const stamps = {
  createdAt: { type: 'string', readOnly: true, default: () => new Date().toISOString() },
  updatedAt: {
    type: 'string',
    watch: '*',
    default: () => new Date().toISOString(),
    set: () => new Date().toISOString(),
  },
};

const employee = new Entity({
  model: { entity: 'employee', version: '1', service: 'task-manager' },
  attributes: {
    employee: { type: 'string', required: true },
    firstName: { type: 'string', required: true },
    lastName: { type: 'string', required: true },
    office: { type: 'string', required: true },
    title: { type: 'string', required: true },
    team: { type: ['platform', 'mobile', 'design', 'finance', 'support'], required: true },
    salary: { type: 'number', required: true },
    manager: { type: 'string' },
    dateHired: { type: 'string', required: true },
    ...stamps,
  },
  indexes: {
    employee: {
      pk: { field: 'pk', composite: ['employee'] },
      sk: { field: 'sk', composite: [] },
    },
    coworkers: {
      index: 'gsi1pk-gsi1sk-index',
      collection: 'workplaces',
      pk: { field: 'gsi1pk', composite: ['office'] },
      sk: { field: 'gsi1sk', composite: ['team', 'title', 'employee'] },
    },
    assignments: {
      index: 'gsi2pk-gsi2sk-index',
      collection: 'assignments',
      pk: { field: 'gsi2pk', composite: ['employee'] },
      sk: { field: 'gsi2sk', composite: [] },
    },
    directReports: {
      index: 'gsi3pk-gsi3sk-index',
      pk: { field: 'gsi3pk', composite: ['manager'] },
      sk: { field: 'gsi3sk', composite: ['dateHired', 'employee'] },
    },
  },
});

const office = new Entity({
  model: { entity: 'office', version: '1', service: 'task-manager' },
  attributes: {
    office: { type: 'string', required: true },
    country: { type: 'string', required: true },
    state: { type: 'string', required: true },
    city: { type: 'string', required: true },
    address: { type: 'string', required: true },
    ...stamps,
  },
  indexes: {
    locations: {
      pk: { field: 'pk', composite: ['country', 'state'] },
      sk: { field: 'sk', composite: ['city', 'office'] },
    },
    office: {
      index: 'gsi1pk-gsi1sk-index',
      collection: 'workplaces',
      pk: { field: 'gsi1pk', composite: ['office'] },
      sk: { field: 'gsi1sk', composite: [] },
    },
  },
});

const project = new Entity({
  model: { entity: 'project', version: '1', service: 'task-manager' },
  attributes: {
    project: { type: 'string', required: true },
    name: { type: 'string', required: true },
    office: { type: 'string', required: true },
    budget: { type: 'number', required: true },
    ...stamps,
  },
  indexes: {
    project: {
      pk: { field: 'pk', composite: ['project'] },
      sk: { field: 'sk', composite: [] },
    },
    backlog: {
      index: 'gsi3pk-gsi3sk-index',
      collection: 'backlog',
      pk: { field: 'gsi3pk', composite: ['project'] },
      sk: { field: 'gsi3sk', composite: [] },
    },
  },
});

const task = new Entity({
  model: { entity: 'task', version: '1', service: 'task-manager' },
  attributes: {
    task: { type: 'string', required: true },
    project: { type: 'string', required: true },
    employee: { type: 'string', required: true },
    description: { type: 'string', required: true },
    status: { type: ['open', 'in-progress', 'blocked', 'done'], required: true },
    points: { type: 'number', required: true },
    tags: { type: 'set', items: 'string' },
    ...stamps,
  },
  indexes: {
    task: {
      pk: { field: 'pk', composite: ['task'] },
      sk: { field: 'sk', composite: ['project', 'employee'] },
    },
    assigned: {
      index: 'gsi2pk-gsi2sk-index',
      collection: 'assignments',
      pk: { field: 'gsi2pk', composite: ['employee'] },
      sk: { field: 'gsi2sk', composite: ['project', 'status'] },
    },
    backlog: {
      index: 'gsi3pk-gsi3sk-index',
      collection: 'backlog',
      pk: { field: 'gsi3pk', composite: ['project'] },
      sk: { field: 'gsi3sk', composite: ['status', 'task'] },
    },
  },
});

const taskManager = new Service({ employee, office, project, task }, { client: documentClient(), table: TABLE });

const FIRST = ['Ada', 'Bilal', 'Chen', 'Dolores', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ines', 'Jamal',
  'Kiri', 'Lena', 'Mateo', 'Noor', 'Oskar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tomas'];
const LAST = ['Abara', 'Brandt', 'Castillo', 'Dubois', 'Eriksen', 'Fujita', 'Gallo', 'Haddad',
  'Ivanova', 'Jensen', 'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov'];
const TITLES = ['Engineer', 'Senior Engineer', 'Designer', 'Analyst', 'Support Lead'];
const VERBS = ['Migrate', 'Audit', 'Draft', 'Review', 'Refactor', 'Document', 'Benchmark', 'Ship'];
const THINGS = ['billing export', 'login flow', 'on-call rota', 'invoice PDFs', 'search index',
  'mobile onboarding', 'quarterly report', 'rate limiter'];

export function generate() {
  const rand = prng(19);
  const items = [];
  const put = (entity, value) => {
    const { Item } = taskManager.entities[entity].put(value).params();
    items.push(toDynamoJson(Item));
    advanceClock(int(rand, 60, 7200) * 1000);
  };

  setClock('2025-09-01T08:30:00.000Z');
  const offices = [
    { office: 'Portland', country: 'US', state: 'OR', city: 'Portland', address: '1120 NW Couch St' },
    { office: 'Austin-2', country: 'US', state: 'TX', city: 'Austin', address: '500 W 2nd St' },
    { office: 'Toronto', country: 'CA', state: 'ON', city: 'Toronto', address: '150 King St W' },
  ];
  for (const o of offices) put('office', o);

  const projects = ['552-79', '318-04', '907-12', '140-66', '733-21'].map((id, i) => ({
    project: id,
    name: ['Ledger', 'Atlas', 'Beacon', 'Cobalt', 'Drift'][i],
    office: offices[i % offices.length].office,
    budget: int(rand, 20, 400) * 1000,
  }));
  for (const p of projects) put('project', p);

  const employees = [];
  for (let i = 0; i < 40; i++) {
    const id = uuid(rand);
    // One head, four leads who report to the head, everyone else reports to a lead.
    const manager = i === 0 ? undefined : i < 5 ? employees[0].employee : pick(rand, employees.slice(1, 5)).employee;
    const e = {
      employee: id,
      firstName: pick(rand, FIRST),
      lastName: pick(rand, LAST),
      office: pick(rand, offices).office,
      title: i === 0 ? 'Director' : i < 5 ? 'Team Lead' : pick(rand, TITLES),
      team: pick(rand, ['platform', 'mobile', 'design', 'finance', 'support']),
      salary: int(rand, 60, 190) * 1000,
      dateHired: `20${int(rand, 15, 25)}-${String(int(rand, 1, 12)).padStart(2, '0')}-${String(int(rand, 1, 28)).padStart(2, '0')}`,
      ...(manager ? { manager } : {}),
    };
    employees.push(e);
    put('employee', e);
  }

  for (let i = 0; i < 60; i++) {
    const t = {
      task: uuid(rand),
      project: pick(rand, projects).project,
      employee: pick(rand, employees).employee,
      description: `${pick(rand, VERBS)} the ${pick(rand, THINGS)}`,
      status: pick(rand, ['open', 'in-progress', 'blocked', 'done']),
      points: pick(rand, [1, 2, 3, 5, 8, 13]),
      ...(i % 3 === 0 ? { tags: [pick(rand, ['backend', 'frontend', 'infra']), pick(rand, ['q3', 'q4', 'urgent'])] } : {}),
    };
    put('task', t);
  }

  return {
    design: 'electrodb_task_manager',
    library: libraryLabel('electrodb'),
    table: createTableInput(TABLE, ['pk', 'sk'], {
      'gsi1pk-gsi1sk-index': ['gsi1pk', 'gsi1sk'],
      'gsi2pk-gsi2sk-index': ['gsi2pk', 'gsi2sk'],
      'gsi3pk-gsi3sk-index': ['gsi3pk', 'gsi3sk'],
    }),
    items,
  };
}
