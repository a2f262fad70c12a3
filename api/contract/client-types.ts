// The contract as a Hono app type, for Hono's RPC client (`hc`, shared/api-client.ts): each
// route's path, method, request (path parameters, query, JSON body) and answers by status, as
// OpenAPIHono would type the app that serves it. Types only: importing this adds no code.
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Env, Hono } from 'hono';
import type { Contract } from './index';

declare const app: OpenAPIHono;

/** What registering one route adds to an app's schema. */
type SchemaOf<R extends RouteConfig> = ReturnType<typeof app.openapi<R>> extends OpenAPIHono<Env, infer S, string> ? S : never;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

type RoutesOf<C> = { [G in keyof C]: C[G][keyof C[G]] }[keyof C];

export type ContractSchema = UnionToIntersection<RoutesOf<Contract> extends infer R ? (R extends RouteConfig ? SchemaOf<R> : never) : never>;

/** The app the contract describes, as `hc` wants it. */
export type ContractApp = Hono<Env, ContractSchema, '/'>;

/** A contract path as a request spells it: each `{param}` stands for any text. */
type Spelled<P extends string> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Spelled<Tail>}` : P;

/**
 * The URLs of the contract's routes for one method (`'POST'` or `'post'`), optionally with a
 * query string: what the API tests' `call` accepts, so a test names only routes the contract has
 * and a route renamed in the contract fails the tests that call it at compile time.
 */
export type ContractUrl<M extends string> =
  RoutesOf<Contract> extends infer R
    ? R extends { method: Lowercase<M>; path: infer P extends string }
      ? Spelled<P> | `${Spelled<P>}?${string}`
      : never
    : never;
