// API paths are written once, as templates ('/api/funnels/:id/'): the server registers its
// routes with them, and the SPA and the tests fill them in (fillPath) to call those routes.

/** The parameter names of a path template: '/api/people/:id/tags/:tagId/' → 'id' | 'tagId'. */
type ParamNames<Template extends string> = Template extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : Template extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<Template extends string> = { [Name in ParamNames<Template>]: string | number };

/** The template with each :name replaced by its (URL-encoded) value. */
export function fillPath<Template extends string>(template: Template, params: PathParams<Template>): string {
  const values = params as Record<string, string | number>;
  return template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`fillPath: no value for :${name} in ${template}`);
    return encodeURIComponent(String(value));
  });
}
