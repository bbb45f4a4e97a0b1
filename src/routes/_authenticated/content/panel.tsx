import { createFileRoute } from '@tanstack/react-router';
import { PanelScreen } from '../../../features/panel/PanelScreen';

export const Route = createFileRoute('/_authenticated/content/panel')({ component: PanelScreen });
