// The clients' paths come from the same templates the server registers: a builder that drifted
// from its template would call a route that does not exist.
import { describe, expect, it } from 'vitest';
import { FUNNELS_API, FUNNELS_PATHS } from './funnels';
import { fillPath } from './paths';

describe('fillPath', () => {
  it('fills every :name of the template, URL-encoded', () => {
    expect(fillPath('/api/funnels/:id/', { id: 7 })).toBe('/api/funnels/7/');
    expect(fillPath('/api/people/:id/tags/:tagId/', { id: 3, tagId: 12 })).toBe('/api/people/3/tags/12/');
    expect(fillPath('/activate/:uid/:token', { uid: 'a/b', token: 'x y' })).toBe('/activate/a%2Fb/x%20y');
    expect(fillPath('/api/dashboard/', {})).toBe('/api/dashboard/');
  });

  it('refuses a template whose parameter has no value', () => {
    expect(() => fillPath('/api/funnels/:id/', {} as { id: number })).toThrow(':id');
  });
});

describe('FUNNELS_API', () => {
  it('gives, for each route template, a path the template matches', () => {
    for (const [name, template] of Object.entries(FUNNELS_PATHS)) {
      const build = FUNNELS_API[name as keyof typeof FUNNELS_API];
      const path = typeof build === 'string' ? build : build(41, 42);
      const pattern = new RegExp(`^${template.replace(/:[A-Za-z]+/g, '[0-9]+')}$`);
      expect(path, name).toMatch(pattern);
      expect(path, name).not.toContain(':');
    }
    expect(Object.keys(FUNNELS_API).sort()).toEqual(Object.keys(FUNNELS_PATHS).sort());
  });
});
