import { createFileRoute } from '@tanstack/react-router';
import { ContactsScreen, contactsQuery } from '@/features/contacts/ContactsScreen';
import { loadFunnelsScreen } from '@/routes/-lib/load';
import type { ContactsSearch } from '../../../../contract/contacts';
import { contactsAddress, contactsSearchOf, validateContactsSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/contacts')({
  // The search is the contacts filter itself; the address keeps its own names (q, from, to), read
  // by validateSearch and written back by this middleware, so bookmarks stay as they were.
  validateSearch: validateContactsSearch,
  search: { middlewares: [({ search, next }) => contactsAddress(next(search)) as ContactsSearch] },
  loaderDeps: ({ search }) => contactsSearchOf(search),
  loader: ({ deps }) =>
    loadFunnelsScreen(async (api) => {
      const [contactsApi, crmApi] = await Promise.all([import('@/api/contacts'), import('@/api/crm')]);
      const [contacts, funnels, folders, lists, stages, tags, sources, fields] = await Promise.all([
        contactsApi.listContacts(contactsQuery(deps)),
        api.listFunnels(),
        crmApi.listFolders(),
        crmApi.listLists(),
        deps.funnel === undefined ? [] : api.listStages(deps.funnel).catch(() => []),
        deps.funnel === undefined ? [] : api.listTags(deps.funnel).catch(() => []),
        deps.funnel === undefined ? [] : api.listSources(deps.funnel).catch(() => []),
        deps.funnel === undefined ? [] : api.listFields(deps.funnel).catch(() => []),
      ]);
      return { contacts, funnels, folders, lists, stages, tags, sources, fields, filters: deps };
    }),
  component: ContactsRoute,
});

function ContactsRoute() {
  const { contacts, funnels, folders, lists, stages, tags, sources, fields, filters } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <ContactsScreen
      contacts={contacts}
      funnels={funnels}
      folders={folders}
      lists={lists}
      stages={stages}
      tags={tags}
      sources={sources}
      fields={fields}
      filters={filters}
      onFilters={(next) => void navigate({ search: next, replace: true })}
    />
  );
}
