import { createFileRoute } from '@tanstack/react-router';
import { LanguageScreen } from '../../../features/settings/LanguageScreen';

export const Route = createFileRoute('/_authenticated/settings/language')({ component: LanguageScreen });
