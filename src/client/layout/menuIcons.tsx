import type { SvgIconComponent } from '@mui/icons-material';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import TimelineIcon from '@mui/icons-material/Timeline';
import TaskIcon from '@mui/icons-material/TaskAltOutlined';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import MapIcon from '@mui/icons-material/MapOutlined';
import ContactsIcon from '@mui/icons-material/ContactsOutlined';
import ContractorsIcon from '@mui/icons-material/EngineeringOutlined';
import SitesIcon from '@mui/icons-material/PlaceOutlined';
import RecruitsIcon from '@mui/icons-material/PersonAddAltOutlined';
import MembersIcon from '@mui/icons-material/GroupsOutlined';
import GrievancesIcon from '@mui/icons-material/GavelOutlined';
import ImportsIcon from '@mui/icons-material/UploadFileOutlined';
import VisitsIcon from '@mui/icons-material/FactCheckOutlined';
import CampaignsIcon from '@mui/icons-material/CampaignOutlined';
import SystemIcon from '@mui/icons-material/SettingsOutlined';
import AdminIcon from '@mui/icons-material/TuneOutlined';
import ProfileIcon from '@mui/icons-material/AccountCircleOutlined';
import SignOutIcon from '@mui/icons-material/LogoutOutlined';
import CategoryIcon from '@mui/icons-material/ChevronRight';
import RecordsIcon from '@mui/icons-material/FolderOutlined';
import AssistantIcon from '@mui/icons-material/AutoAwesomeOutlined';
import ReportsIcon from '@mui/icons-material/AssessmentOutlined';
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
