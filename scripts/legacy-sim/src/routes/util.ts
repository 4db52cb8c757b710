/** Small helpers for reading loosely typed legacy payloads. */
import type { FastifyRequest } from 'fastify';

export type Bag = Record<string, unknown>;

export function body(request: FastifyRequest): Bag {
  return request.body && typeof request.body === 'object' && !Array.isArray(request.body)
    ? (request.body as Bag)
    : {};
}

/** Reads a key case-insensitively (the legacy binds names loosely: CaseId = caseId). */
export function pick(bag: Bag, key: string): unknown {
  if (key in bag) return bag[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(bag)) if (k.toLowerCase() === lower) return bag[k];
  return undefined;
}

export function str(bag: Bag, key: string): string {
  const v = pick(bag, key);
  return v === undefined || v === null ? '' : String(v).trim();
}

/** A number, or null for absent, empty, 'null' or non-numeric. */
export function num(bag: Bag, key: string): number | null {
  const v = pick(bag, key);
  if (v === undefined || v === null || v === '' || v === 'null' || v === 'undefined') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

export function isNumeric(bag: Bag, key: string): boolean {
  const v = pick(bag, key);
  return v !== undefined && v !== null && v !== '' && Number.isFinite(Number(v));
}

export function param(request: FastifyRequest, key: string): number {
  return Number((request.params as Bag)[key]);
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
