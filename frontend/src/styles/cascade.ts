// The cascade order of the component stylesheets. Each component imports its
// own sheet (components/X.css beside X.tsx); importing them here as well, right
// after the global sheet, pins where they land in the bundle: Vite orders CSS
// by first import, so without this a sheet would move whenever a component's
// imports change, and rules of equal specificity would start to win or lose
// (e.g. .composer__hint--warn over .composer__hint, ToolCard.css before the
// feature sheets such as toolmode.css that refine cards). Keep this order when
// adding a sheet: global sheet, these (layout order), then feature sheets.
import '../components/Sidebar.css'
import '../components/ChatView.css'
import '../components/MessageItem.css'
import '../components/MarkdownRenderer.css'
import '../components/Composer.css'
import '../components/settings/ProvidersPanel.css'
import '../components/settings/AboutPanel.css'
import '../components/Toasts.css'
import '../components/ChatOptions.css'
import '../components/ContextGauge.css'
import '../components/ToolCard.css'
import '../components/ToolLab.css'
import '../components/settings/PermissionsPanel.css'
import '../components/AboutDialog.css'
import '../components/FilesPanel.css'
import '../components/FileViewer.css'
import '../components/Changes.css'
import '../components/WorkspaceDialog.css'
import '../components/RunTool.css'
import './agents.css'
