// The baseline for the quote benchmark (docs/budgets.md: the quote route must reach ≥ 40% of GET /):
// the smallest Hono app on the same node-server adapter, spawned like the real server.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

// POST /echo is the reference for what any JSON POST costs on this stack: the idiomatic Hono
// handler that reads a JSON body and answers JSON, with no work in between.
const app = new Hono().get('/', (c) => c.text('ok')).post('/echo', async (c) => c.json(await c.req.json()));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: process.env.HOST ?? '127.0.0.1' });
