/**
 * The rest of the portal's UI kit: components no first page needs. Provided by the shell like
 * `@portal/shared/ui` (same antd instance and context), but loaded only when a page first uses it.
 */
export {
  Alert,
  App,
  Badge,
  InputNumber,
  Radio,
  Upload,
  Card,
  Col,
  Descriptions,
  Divider,
  Flex,
  Empty,
  Form,
  Input,
  List,
  message,
  Modal,
  notification,
  Pagination,
  Popconfirm,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Switch,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
export type { FormInstance, TableProps } from 'antd';
export {
  DeleteOutlined,
  EditOutlined,
  KeyOutlined,
  PlusOutlined,
  SearchOutlined,
  StopOutlined,
  UploadOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
