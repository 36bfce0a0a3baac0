// shoeAsset(): the URL of each file under shoebox/outsole/, and the paths that have none.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { shoeAsset, useDocsMount } from '../../runtime/shoebox/assets.ts';

it('maps what the docs endpoint serves under its mount, everything else under /shoebox/outsole/', () => {
  assert.equal(shoeAsset('docs/swagger-ui.css'), '/svc/docs/swagger-ui.css');
  assert.equal(shoeAsset('./docs/logo.png'), '/svc/docs/logo.png');
  assert.equal(shoeAsset('openapi.json'), '/svc/docs/openapi.json');
  assert.equal(shoeAsset('logo.png'), '/shoebox/outsole/logo.png');
  assert.equal(shoeAsset('img//icons/app.svg'), '/shoebox/outsole/img/icons/app.svg');
  assert.equal(shoeAsset('docs/sub/file.js'), '/shoebox/outsole/docs/sub/file.js');
  assert.equal(shoeAsset('docs/openapi.json'), '/shoebox/outsole/docs/openapi.json');
  useDocsMount('/reference');
  assert.equal(shoeAsset('docs/swagger-ui.css'), '/reference/swagger-ui.css');
});

it('refuses paths that climb out of the folder, hidden files and escapes', () => {
  for (const path of ['docs/../svc.json', '../svc.json', 'docs/.env', '.env', 'docs/a%2Fb', '', '.', 'a b.txt']) {
    assert.throws(() => shoeAsset(path), /give a file under shoebox\/outsole\/ by plain names/, path);
  }
});
