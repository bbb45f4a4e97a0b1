// The series-of-letters API's calls (contract/letters.ts), on the authenticated client. Only the
// series screens import this, so it loads with their chunks.
import { LETTERS_API, type Letter, type LetterBody, type PersonSeries, type LetterHistory, type LetterPatch, type Series, type SeriesBody, type SeriesPatch } from '../../contract/letters';
import { apiPath, authClient } from './clients';

const get = <T>(path: string) => authClient.get(apiPath(path)).json<T>();
const post = <T>(path: string, json?: unknown) => authClient.post(apiPath(path), { json }).json<T>();
const patch = <T>(path: string, json: unknown) => authClient.patch(apiPath(path), { json }).json<T>();
const remove = async (path: string) => {
  await authClient.delete(apiPath(path));
};

export const listSeries = (funnelId: number) => get<Series[]>(LETTERS_API.series(funnelId));
export const getSeries = (id: number) => get<Series>(LETTERS_API.oneSeries(id));
export const createSeries = (funnelId: number, body: SeriesBody) => post<Series>(LETTERS_API.series(funnelId), body);
export const updateSeries = (id: number, body: SeriesPatch) => patch<Series>(LETTERS_API.oneSeries(id), body);
export const deleteSeries = (id: number) => remove(LETTERS_API.oneSeries(id));
export const setSeriesEnabled = (id: number, enabled: boolean) => post<Series>(enabled ? LETTERS_API.enable(id) : LETTERS_API.disable(id));
export const addLetter = (seriesId: number, body: LetterBody) => post<Letter>(LETTERS_API.letters(seriesId), body);
export const getLetter = (id: number) => get<Letter>(LETTERS_API.letter(id));
export const updateLetter = (id: number, body: LetterPatch) => patch<Letter>(LETTERS_API.letter(id), body);
export const deleteLetter = (id: number) => remove(LETTERS_API.letter(id));
export const letterHistory = (id: number) => get<LetterHistory>(LETTERS_API.history(id));
export const joinSeries = async (seriesId: number, personId: number) => {
  await authClient.post(apiPath(LETTERS_API.members(seriesId)), { json: { person_id: personId } });
};
export const leaveSeries = (seriesId: number, personId: number) => remove(LETTERS_API.member(seriesId, personId));
export const seriesOfPerson = (personId: number) => get<PersonSeries>(LETTERS_API.personSeries(personId));
