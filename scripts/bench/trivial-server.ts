// The baseline for the quote benchmark (DESIGN.md §9: the quote route must reach ≥ 40% of this):
// the smallest Hono app on the same node-server adapter, spawned like the real server.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono().get('/', (c) => c.text('ok'));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: process.env.HOST ?? '127.0.0.1' });
