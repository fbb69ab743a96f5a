import type { SvgIconComponent } from '@mui/icons-material';
import ProfileIcon from '@mui/icons-material/AccountCircleOutlined';
import ReportsIcon from '@mui/icons-material/AssessmentOutlined';
import AssistantIcon from '@mui/icons-material/AutoAwesomeOutlined';
import CampaignsIcon from '@mui/icons-material/CampaignOutlined';
import ConversationsIcon from '@mui/icons-material/ChatOutlined';
import CategoryIcon from '@mui/icons-material/ChevronRight';
import ContactsIcon from '@mui/icons-material/ContactsOutlined';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import ContractorsIcon from '@mui/icons-material/EngineeringOutlined';
import VisitsIcon from '@mui/icons-material/FactCheckOutlined';
import RecordsIcon from '@mui/icons-material/FolderOutlined';
import MessagesIcon from '@mui/icons-material/ForwardToInboxOutlined';
import GrievancesIcon from '@mui/icons-material/GavelOutlined';
import MembersIcon from '@mui/icons-material/GroupsOutlined';
import SignOutIcon from '@mui/icons-material/LogoutOutlined';
import MapIcon from '@mui/icons-material/MapOutlined';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import RecruitsIcon from '@mui/icons-material/PersonAddAltOutlined';
import CallListsIcon from '@mui/icons-material/PhoneInTalkOutlined';
import SitesIcon from '@mui/icons-material/PlaceOutlined';
import SystemIcon from '@mui/icons-material/SettingsOutlined';
import TaskIcon from '@mui/icons-material/TaskAltOutlined';
import TimelineIcon from '@mui/icons-material/Timeline';
import AdminIcon from '@mui/icons-material/TuneOutlined';
import ImportsIcon from '@mui/icons-material/UploadFileOutlined';
import type { MenuIcon } from './menuModel';

export const MENU_ICONS: Record<MenuIcon, SvgIconComponent> = {
  dashboard: DashboardIcon,
  activity: TimelineIcon,
  tasks: TaskIcon,
  notifications: NotificationsIcon,
  map: MapIcon,
  contacts: ContactsIcon,
  contractors: ContractorsIcon,
  sites: SitesIcon,
  recruits: RecruitsIcon,
  members: MembersIcon,
  grievances: GrievancesIcon,
  visits: VisitsIcon,
  campaigns: CampaignsIcon,
  conversations: ConversationsIcon,
  callLists: CallListsIcon,
  messages: MessagesIcon,
  imports: ImportsIcon,
  system: SystemIcon,
  admin: AdminIcon,
  profile: ProfileIcon,
  signOut: SignOutIcon,
  category: CategoryIcon,
  records: RecordsIcon,
  assistant: AssistantIcon,
  reports: ReportsIcon,
};
