import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accepts, prefers } from '../../runtime/http/accepts.ts';

test('accepts: the type anywhere in the header, in any case, unless marked not acceptable', () => {
  assert.equal(accepts('text/html,application/xhtml+xml,*/*;q=0.8', 'text/html'), true);
  assert.equal(accepts('application/json, text/html;q=0.1', 'text/html'), true);
  assert.equal(accepts('TEXT/HTML', 'text/html'), true);
  assert.equal(accepts('text/html;q=0, application/json', 'text/html'), false);
  assert.equal(accepts('Text/HTML; Q=0', 'text/html'), false);
  assert.equal(accepts('application/json', 'text/html'), false);
  assert.equal(accepts(undefined, 'text/html'), false);
});

test('prefers: the type named with a quality above 0, at least that of the other', () => {
  const json = (accept: string | undefined): boolean => prefers(accept, 'application/json', 'text/plain');
  assert.equal(json('application/json'), true);
  assert.equal(json('Application/JSON'), true);
  assert.equal(json('application/json; charset=utf-8'), true);
  assert.equal(json('text/plain, application/json'), true); // equal quality: the type asked for by name
  assert.equal(json('application/json;q=0'), false);
  assert.equal(json('text/plain, application/json;q=0.1'), false);
  assert.equal(json('text/plain;q=0.2, application/json;q=0.5'), true);
  // text/plain's quality is that of the most specific range covering it.
  assert.equal(json('application/json;q=0.5, text/*'), false);
  assert.equal(json('application/json;q=0.5, */*'), false);
  assert.equal(json('application/json;q=0.5, text/*;q=0.2, */*'), true);
  assert.equal(json('application/json;q=0.5, text/plain;q=0.1, text/*'), true);
  // Prometheus' scrape header, and a browser's: neither names JSON.
  assert.equal(json('application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.2,*/*;q=0.1'), false);
  assert.equal(json('text/html,application/xhtml+xml,*/*;q=0.8'), false);
  assert.equal(json('application/jsonx'), false);
  assert.equal(json('application/json;q=oops'), false);
  assert.equal(json(undefined), false);
});
