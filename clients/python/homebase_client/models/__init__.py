"""Contains all the data models used in inputs/outputs"""

from .ai_handoff_data import AiHandoffData
from .ai_handoff_event import AiHandoffEvent
from .ai_opt_outs import AiOptOuts
from .ai_stats import AiStats
from .ai_stats_handoffs import AiStatsHandoffs
from .ai_stats_narrowed import AiStatsNarrowed
from .ai_stats_narrowed_handoffs import AiStatsNarrowedHandoffs
from .ai_stats_narrowed_replies_withheld import AiStatsNarrowedRepliesWithheld
from .ai_stats_replies_withheld import AiStatsRepliesWithheld
from .ai_text_step import AiTextStep
from .appointment import Appointment
from .appointment_booked_data import AppointmentBookedData
from .appointment_booked_event import AppointmentBookedEvent
from .appointment_create import AppointmentCreate
from .appointment_export_filters import AppointmentExportFilters
from .appointment_narrowed import AppointmentNarrowed
from .appointment_outcome import AppointmentOutcome
from .appointment_outcome_data import AppointmentOutcomeData
from .appointment_outcome_event import AppointmentOutcomeEvent
from .appointment_rescheduled_data import AppointmentRescheduledData
from .appointment_rescheduled_event import AppointmentRescheduledEvent
from .appointment_status import AppointmentStatus
from .appointment_update import AppointmentUpdate
from .appointments_export_create import AppointmentsExportCreate
from .appointments_export_create_object import AppointmentsExportCreateObject
from .assign_request import AssignRequest
from .assign_result import AssignResult
from .assignee import Assignee
from .attempt import Attempt
from .attempt_outcome import AttemptOutcome
from .authorization_server_metadata import AuthorizationServerMetadata
from .authorization_server_metadata_grant_types_supported_item import (
    AuthorizationServerMetadataGrantTypesSupportedItem,
)
from .authorization_server_metadata_revocation_endpoint_auth_methods_supported_item import (
    AuthorizationServerMetadataRevocationEndpointAuthMethodsSupportedItem,
)
from .authorization_server_metadata_token_endpoint_auth_methods_supported_item import (
    AuthorizationServerMetadataTokenEndpointAuthMethodsSupportedItem,
)
from .automation import Automation
from .automation_narrowed import AutomationNarrowed
from .automation_run_data import AutomationRunData
from .automation_run_event import AutomationRunEvent
from .call import Call
from .call_completed_data import CallCompletedData
from .call_completed_event import CallCompletedEvent
from .call_direction import CallDirection
from .call_narrowed import CallNarrowed
from .call_recorded import CallRecorded
from .callback_accepted import CallbackAccepted
from .campaign import Campaign
from .campaign_audience import CampaignAudience
from .campaign_channel import CampaignChannel
from .campaign_contact import CampaignContact
from .campaign_contact_narrowed import CampaignContactNarrowed
from .campaign_contact_state import CampaignContactState
from .campaign_counts import CampaignCounts
from .campaign_counts_skipped_by_reason import CampaignCountsSkippedByReason
from .campaign_enroll_request import CampaignEnrollRequest
from .campaign_enroll_result import CampaignEnrollResult
from .campaign_narrowed import CampaignNarrowed
from .campaign_report import CampaignReport
from .campaign_report_narrowed import CampaignReportNarrowed
from .campaign_skip_reason import CampaignSkipReason
from .campaign_status import CampaignStatus
from .consent_in import ConsentIn
from .consent_in_form_snapshot_type_0 import ConsentInFormSnapshotType0
from .considered_rule import ConsideredRule
from .considered_rule_outcome import ConsideredRuleOutcome
from .contact import Contact
from .contact_ai_pause_reason import ContactAiPauseReason
from .contact_create import ContactCreate
from .contact_create_custom_fields_type_0 import ContactCreateCustomFieldsType0
from .contact_created_data import ContactCreatedData
from .contact_created_data_custom_fields import ContactCreatedDataCustomFields
from .contact_created_event import ContactCreatedEvent
from .contact_custom_fields import ContactCustomFields
from .contact_export_filters import ContactExportFilters
from .contact_narrowed import ContactNarrowed
from .contact_narrowed_custom_fields import ContactNarrowedCustomFields
from .contact_stage import ContactStage
from .contact_stage_changed_data import ContactStageChangedData
from .contact_stage_changed_event import ContactStageChangedEvent
from .contact_tag_added_data import ContactTagAddedData
from .contact_tag_added_event import ContactTagAddedEvent
from .contact_update import ContactUpdate
from .contact_update_custom_fields import ContactUpdateCustomFields
from .contact_updated_data import ContactUpdatedData
from .contact_updated_data_custom_fields import ContactUpdatedDataCustomFields
from .contact_updated_event import ContactUpdatedEvent
from .contact_written import ContactWritten
from .contact_written_custom_fields import ContactWrittenCustomFields
from .contact_written_narrowed import ContactWrittenNarrowed
from .contact_written_narrowed_custom_fields import ContactWrittenNarrowedCustomFields
from .contacts_export_create import ContactsExportCreate
from .contacts_export_create_object import ContactsExportCreateObject
from .contacts_import_create import ContactsImportCreate
from .contacts_import_create_rows_item import ContactsImportCreateRowsItem
from .contacts_import_create_value_map import ContactsImportCreateValueMap
from .create_task_step import CreateTaskStep
from .custom_field import CustomField
from .custom_field_deleted import CustomFieldDeleted
from .custom_field_narrowed import CustomFieldNarrowed
from .custom_field_object import CustomFieldObject
from .custom_field_type import CustomFieldType
from .custom_field_update import CustomFieldUpdate
from .custom_plain_field_create import CustomPlainFieldCreate
from .custom_plain_field_create_type import CustomPlainFieldCreateType
from .custom_select_field_create import CustomSelectFieldCreate
from .custom_select_field_create_type import CustomSelectFieldCreateType
from .deal import Deal
from .deal_create import DealCreate
from .deal_create_custom_fields_type_0 import DealCreateCustomFieldsType0
from .deal_custom_fields import DealCustomFields
from .deal_export_filters import DealExportFilters
from .deal_narrowed import DealNarrowed
from .deal_narrowed_custom_fields import DealNarrowedCustomFields
from .deal_stage_changed_data import DealStageChangedData
from .deal_stage_changed_event import DealStageChangedEvent
from .deal_status import DealStatus
from .deal_update import DealUpdate
from .deal_update_custom_fields import DealUpdateCustomFields
from .deals_export_create import DealsExportCreate
from .deals_export_create_object import DealsExportCreateObject
from .delivery import Delivery
from .delivery_narrowed import DeliveryNarrowed
from .delivery_narrowed_status import DeliveryNarrowedStatus
from .delivery_status import DeliveryStatus
from .document_signed_data import DocumentSignedData
from .document_signed_event import DocumentSignedEvent
from .email_send import EmailSend
from .email_send_channel import EmailSendChannel
from .enroll_request import EnrollRequest
from .enroll_response import EnrollResponse
from .enroll_response_narrowed import EnrollResponseNarrowed
from .enrolment import Enrolment
from .enrolment_narrowed import EnrolmentNarrowed
from .enrolment_status import EnrolmentStatus
from .erased import Erased
from .error_detail import ErrorDetail
from .error_details import ErrorDetails
from .error_envelope import ErrorEnvelope
from .event import Event
from .event_data import EventData
from .event_envelope import EventEnvelope
from .event_envelope_data import EventEnvelopeData
from .event_envelope_event import EventEnvelopeEvent
from .event_narrowed import EventNarrowed
from .event_narrowed_data import EventNarrowedData
from .export import Export
from .export_filters import ExportFilters
from .export_format import ExportFormat
from .export_narrowed import ExportNarrowed
from .export_narrowed_filters import ExportNarrowedFilters
from .export_object import ExportObject
from .export_status import ExportStatus
from .failed_condition_out import FailedConditionOut
from .field_error import FieldError
from .handled_by import HandledBy
from .import_counts import ImportCounts
from .import_field_error import ImportFieldError
from .import_job import ImportJob
from .import_job_refused_by_reason import ImportJobRefusedByReason
from .import_match_key import ImportMatchKey
from .import_object import ImportObject
from .import_row_errors import ImportRowErrors
from .import_row_kind import ImportRowKind
from .import_status import ImportStatus
from .invalid_cell import InvalidCell
from .issue_oauth_token_token_request import IssueOauthTokenTokenRequest
from .issue_oauth_token_token_request_grant_type import (
    IssueOauthTokenTokenRequestGrantType,
)
from .lead import Lead
from .lead_assigned_data import LeadAssignedData
from .lead_assigned_data_lead import LeadAssignedDataLead
from .lead_assigned_event import LeadAssignedEvent
from .lead_context import LeadContext
from .lead_create import LeadCreate
from .lead_create_context import LeadCreateContext
from .lead_created_data import LeadCreatedData
from .lead_created_event import LeadCreatedEvent
from .lead_export_filters import LeadExportFilters
from .lead_export_filters_unlinked_only_type_0 import LeadExportFiltersUnlinkedOnlyType0
from .lead_narrowed import LeadNarrowed
from .lead_narrowed_context import LeadNarrowedContext
from .lead_narrowed_routing_status import LeadNarrowedRoutingStatus
from .lead_routing_status import LeadRoutingStatus
from .lead_written import LeadWritten
from .lead_written_context import LeadWrittenContext
from .lead_written_narrowed import LeadWrittenNarrowed
from .lead_written_narrowed_context import LeadWrittenNarrowedContext
from .lead_written_narrowed_routing_status import LeadWrittenNarrowedRoutingStatus
from .lead_written_routing_status import LeadWrittenRoutingStatus
from .leads_export_create import LeadsExportCreate
from .leads_export_create_object import LeadsExportCreateObject
from .leads_import_create import LeadsImportCreate
from .leads_import_create_rows_item import LeadsImportCreateRowsItem
from .list_leads_unlinked_only_type_0 import ListLeadsUnlinkedOnlyType0
from .list_members_removed_type_0 import ListMembersRemovedType0
from .listing import Listing
from .listing_narrowed import ListingNarrowed
from .listing_status import ListingStatus
from .message import Message
from .message_channel import MessageChannel
from .message_direction import MessageDirection
from .message_export_filters import MessageExportFilters
from .message_narrowed import MessageNarrowed
from .message_received_data import MessageReceivedData
from .message_received_event import MessageReceivedEvent
from .message_sent_data import MessageSentData
from .message_sent_event import MessageSentEvent
from .message_status import MessageStatus
from .messages_export_create import MessagesExportCreate
from .messages_export_create_object import MessagesExportCreateObject
from .move_stage_step import MoveStageStep
from .note_create import NoteCreate
from .o_auth_error_body import OAuthErrorBody
from .o_auth_error_body_error import OAuthErrorBodyError
from .page_appointment import PageAppointment
from .page_automation import PageAutomation
from .page_call import PageCall
from .page_campaign import PageCampaign
from .page_campaign_contact import PageCampaignContact
from .page_contact import PageContact
from .page_custom_field import PageCustomField
from .page_deal import PageDeal
from .page_delivery import PageDelivery
from .page_enrolment import PageEnrolment
from .page_event import PageEvent
from .page_event_envelope import PageEventEnvelope
from .page_export import PageExport
from .page_import_job import PageImportJob
from .page_import_row_errors import PageImportRowErrors
from .page_lead import PageLead
from .page_listing import PageListing
from .page_message import PageMessage
from .page_persona import PagePersona
from .page_pipeline import PagePipeline
from .page_task import PageTask
from .page_webhook import PageWebhook
from .page_workspace_member import PageWorkspaceMember
from .persona import Persona
from .persona_action import PersonaAction
from .persona_first_touch import PersonaFirstTouch
from .persona_narrowed import PersonaNarrowed
from .persona_narrowed_showing_hours import PersonaNarrowedShowingHours
from .persona_narrowed_translations import PersonaNarrowedTranslations
from .persona_narrowed_translations_additional_property import (
    PersonaNarrowedTranslationsAdditionalProperty,
)
from .persona_narrowed_voicemail import PersonaNarrowedVoicemail
from .persona_showing_hours import PersonaShowingHours
from .persona_translations import PersonaTranslations
from .persona_translations_additional_property import (
    PersonaTranslationsAdditionalProperty,
)
from .persona_voicemail import PersonaVoicemail
from .photo import Photo
from .ping import Ping
from .pipeline import Pipeline
from .pipeline_narrowed import PipelineNarrowed
from .pipeline_stage import PipelineStage
from .preview_request import PreviewRequest
from .receive_call_completed_call_completed import ReceiveCallCompletedCallCompleted
from .receive_call_completed_call_completed_call_direction import (
    ReceiveCallCompletedCallCompletedCallDirection,
)
from .receive_call_completed_call_completed_handled_by import (
    ReceiveCallCompletedCallCompletedHandledBy,
)
from .receive_inbound_message_body import ReceiveInboundMessageBody
from .receive_message_status_body import ReceiveMessageStatusBody
from .revoke_oauth_token_revoke_request import RevokeOauthTokenRevokeRequest
from .revoke_oauth_token_revoke_request_token_type_hint_type_0 import (
    RevokeOauthTokenRevokeRequestTokenTypeHintType0,
)
from .revoke_response import RevokeResponse
from .routing_preview import RoutingPreview
from .rule_ref import RuleRef
from .saved_search_sent_data import SavedSearchSentData
from .saved_search_sent_event import SavedSearchSentEvent
from .send_message_step import SendMessageStep
from .sms_send import SmsSend
from .sms_send_channel import SmsSendChannel
from .task import Task
from .task_create import TaskCreate
from .task_created import TaskCreated
from .task_created_narrowed import TaskCreatedNarrowed
from .task_export_filters import TaskExportFilters
from .task_narrowed import TaskNarrowed
from .task_priority import TaskPriority
from .task_status import TaskStatus
from .tasks_export_create import TasksExportCreate
from .tasks_export_create_object import TasksExportCreateObject
from .token_response import TokenResponse
from .wait_step import WaitStep
from .webhook import Webhook
from .webhook_create import WebhookCreate
from .webhook_create_event_types_item import WebhookCreateEventTypesItem
from .webhook_created import WebhookCreated
from .webhook_created_disabled_reason_type_0 import WebhookCreatedDisabledReasonType0
from .webhook_created_narrowed import WebhookCreatedNarrowed
from .webhook_created_narrowed_disabled_reason_type_0 import (
    WebhookCreatedNarrowedDisabledReasonType0,
)
from .webhook_created_narrowed_status import WebhookCreatedNarrowedStatus
from .webhook_created_status import WebhookCreatedStatus
from .webhook_deleted import WebhookDeleted
from .webhook_disabled_reason_type_0 import WebhookDisabledReasonType0
from .webhook_narrowed import WebhookNarrowed
from .webhook_narrowed_disabled_reason_type_0 import WebhookNarrowedDisabledReasonType0
from .webhook_narrowed_status import WebhookNarrowedStatus
from .webhook_status import WebhookStatus
from .webhook_update import WebhookUpdate
from .webhook_update_event_types_item import WebhookUpdateEventTypesItem
from .webhook_update_status import WebhookUpdateStatus
from .whats_app_send import WhatsAppSend
from .whats_app_send_channel import WhatsAppSendChannel
from .workspace_member import WorkspaceMember
from .workspace_member_narrowed import WorkspaceMemberNarrowed
from .write_warning import WriteWarning

__all__ = (
    "AiHandoffData",
    "AiHandoffEvent",
    "AiOptOuts",
    "AiStats",
    "AiStatsHandoffs",
    "AiStatsNarrowed",
    "AiStatsNarrowedHandoffs",
    "AiStatsNarrowedRepliesWithheld",
    "AiStatsRepliesWithheld",
    "AiTextStep",
    "Appointment",
    "AppointmentBookedData",
    "AppointmentBookedEvent",
    "AppointmentCreate",
    "AppointmentExportFilters",
    "AppointmentNarrowed",
    "AppointmentOutcome",
    "AppointmentOutcomeData",
    "AppointmentOutcomeEvent",
    "AppointmentRescheduledData",
    "AppointmentRescheduledEvent",
    "AppointmentStatus",
    "AppointmentUpdate",
    "AppointmentsExportCreate",
    "AppointmentsExportCreateObject",
    "AssignRequest",
    "AssignResult",
    "Assignee",
    "Attempt",
    "AttemptOutcome",
    "AuthorizationServerMetadata",
    "AuthorizationServerMetadataGrantTypesSupportedItem",
    "AuthorizationServerMetadataRevocationEndpointAuthMethodsSupportedItem",
    "AuthorizationServerMetadataTokenEndpointAuthMethodsSupportedItem",
    "Automation",
    "AutomationNarrowed",
    "AutomationRunData",
    "AutomationRunEvent",
    "Call",
    "CallCompletedData",
    "CallCompletedEvent",
    "CallDirection",
    "CallNarrowed",
    "CallRecorded",
    "CallbackAccepted",
    "Campaign",
    "CampaignAudience",
    "CampaignChannel",
    "CampaignContact",
    "CampaignContactNarrowed",
    "CampaignContactState",
    "CampaignCounts",
    "CampaignCountsSkippedByReason",
    "CampaignEnrollRequest",
    "CampaignEnrollResult",
    "CampaignNarrowed",
    "CampaignReport",
    "CampaignReportNarrowed",
    "CampaignSkipReason",
    "CampaignStatus",
    "ConsentIn",
    "ConsentInFormSnapshotType0",
    "ConsideredRule",
    "ConsideredRuleOutcome",
    "Contact",
    "ContactAiPauseReason",
    "ContactCreate",
    "ContactCreateCustomFieldsType0",
    "ContactCreatedData",
    "ContactCreatedDataCustomFields",
    "ContactCreatedEvent",
    "ContactCustomFields",
    "ContactExportFilters",
    "ContactNarrowed",
    "ContactNarrowedCustomFields",
    "ContactStage",
    "ContactStageChangedData",
    "ContactStageChangedEvent",
    "ContactTagAddedData",
    "ContactTagAddedEvent",
    "ContactUpdate",
    "ContactUpdateCustomFields",
    "ContactUpdatedData",
    "ContactUpdatedDataCustomFields",
    "ContactUpdatedEvent",
    "ContactWritten",
    "ContactWrittenCustomFields",
    "ContactWrittenNarrowed",
    "ContactWrittenNarrowedCustomFields",
    "ContactsExportCreate",
    "ContactsExportCreateObject",
    "ContactsImportCreate",
    "ContactsImportCreateRowsItem",
    "ContactsImportCreateValueMap",
    "CreateTaskStep",
    "CustomField",
    "CustomFieldDeleted",
    "CustomFieldNarrowed",
    "CustomFieldObject",
    "CustomFieldType",
    "CustomFieldUpdate",
    "CustomPlainFieldCreate",
    "CustomPlainFieldCreateType",
    "CustomSelectFieldCreate",
    "CustomSelectFieldCreateType",
    "Deal",
    "DealCreate",
    "DealCreateCustomFieldsType0",
    "DealCustomFields",
    "DealExportFilters",
    "DealNarrowed",
    "DealNarrowedCustomFields",
    "DealStageChangedData",
    "DealStageChangedEvent",
    "DealStatus",
    "DealUpdate",
    "DealUpdateCustomFields",
    "DealsExportCreate",
    "DealsExportCreateObject",
    "Delivery",
    "DeliveryNarrowed",
    "DeliveryNarrowedStatus",
    "DeliveryStatus",
    "DocumentSignedData",
    "DocumentSignedEvent",
    "EmailSend",
    "EmailSendChannel",
    "EnrollRequest",
    "EnrollResponse",
    "EnrollResponseNarrowed",
    "Enrolment",
    "EnrolmentNarrowed",
    "EnrolmentStatus",
    "Erased",
    "ErrorDetail",
    "ErrorDetails",
    "ErrorEnvelope",
    "Event",
    "EventData",
    "EventEnvelope",
    "EventEnvelopeData",
    "EventEnvelopeEvent",
    "EventNarrowed",
    "EventNarrowedData",
    "Export",
    "ExportFilters",
    "ExportFormat",
    "ExportNarrowed",
    "ExportNarrowedFilters",
    "ExportObject",
    "ExportStatus",
    "FailedConditionOut",
    "FieldError",
    "HandledBy",
    "ImportCounts",
    "ImportFieldError",
    "ImportJob",
    "ImportJobRefusedByReason",
    "ImportMatchKey",
    "ImportObject",
    "ImportRowErrors",
    "ImportRowKind",
    "ImportStatus",
    "InvalidCell",
    "IssueOauthTokenTokenRequest",
    "IssueOauthTokenTokenRequestGrantType",
    "Lead",
    "LeadAssignedData",
    "LeadAssignedDataLead",
    "LeadAssignedEvent",
    "LeadContext",
    "LeadCreate",
    "LeadCreateContext",
    "LeadCreatedData",
    "LeadCreatedEvent",
    "LeadExportFilters",
    "LeadExportFiltersUnlinkedOnlyType0",
    "LeadNarrowed",
    "LeadNarrowedContext",
    "LeadNarrowedRoutingStatus",
    "LeadRoutingStatus",
    "LeadWritten",
    "LeadWrittenContext",
    "LeadWrittenNarrowed",
    "LeadWrittenNarrowedContext",
    "LeadWrittenNarrowedRoutingStatus",
    "LeadWrittenRoutingStatus",
    "LeadsExportCreate",
    "LeadsExportCreateObject",
    "LeadsImportCreate",
    "LeadsImportCreateRowsItem",
    "ListLeadsUnlinkedOnlyType0",
    "ListMembersRemovedType0",
    "Listing",
    "ListingNarrowed",
    "ListingStatus",
    "Message",
    "MessageChannel",
    "MessageDirection",
    "MessageExportFilters",
    "MessageNarrowed",
    "MessageReceivedData",
    "MessageReceivedEvent",
    "MessageSentData",
    "MessageSentEvent",
    "MessageStatus",
    "MessagesExportCreate",
    "MessagesExportCreateObject",
    "MoveStageStep",
    "NoteCreate",
    "OAuthErrorBody",
    "OAuthErrorBodyError",
    "PageAppointment",
    "PageAutomation",
    "PageCall",
    "PageCampaign",
    "PageCampaignContact",
    "PageContact",
    "PageCustomField",
    "PageDeal",
    "PageDelivery",
    "PageEnrolment",
    "PageEvent",
    "PageEventEnvelope",
    "PageExport",
    "PageImportJob",
    "PageImportRowErrors",
    "PageLead",
    "PageListing",
    "PageMessage",
    "PagePersona",
    "PagePipeline",
    "PageTask",
    "PageWebhook",
    "PageWorkspaceMember",
    "Persona",
    "PersonaAction",
    "PersonaFirstTouch",
    "PersonaNarrowed",
    "PersonaNarrowedShowingHours",
    "PersonaNarrowedTranslations",
    "PersonaNarrowedTranslationsAdditionalProperty",
    "PersonaNarrowedVoicemail",
    "PersonaShowingHours",
    "PersonaTranslations",
    "PersonaTranslationsAdditionalProperty",
    "PersonaVoicemail",
    "Photo",
    "Ping",
    "Pipeline",
    "PipelineNarrowed",
    "PipelineStage",
    "PreviewRequest",
    "ReceiveCallCompletedCallCompleted",
    "ReceiveCallCompletedCallCompletedCallDirection",
    "ReceiveCallCompletedCallCompletedHandledBy",
    "ReceiveInboundMessageBody",
    "ReceiveMessageStatusBody",
    "RevokeOauthTokenRevokeRequest",
    "RevokeOauthTokenRevokeRequestTokenTypeHintType0",
    "RevokeResponse",
    "RoutingPreview",
    "RuleRef",
    "SavedSearchSentData",
    "SavedSearchSentEvent",
    "SendMessageStep",
    "SmsSend",
    "SmsSendChannel",
    "Task",
    "TaskCreate",
    "TaskCreated",
    "TaskCreatedNarrowed",
    "TaskExportFilters",
    "TaskNarrowed",
    "TaskPriority",
    "TaskStatus",
    "TasksExportCreate",
    "TasksExportCreateObject",
    "TokenResponse",
    "WaitStep",
    "Webhook",
    "WebhookCreate",
    "WebhookCreateEventTypesItem",
    "WebhookCreated",
    "WebhookCreatedDisabledReasonType0",
    "WebhookCreatedNarrowed",
    "WebhookCreatedNarrowedDisabledReasonType0",
    "WebhookCreatedNarrowedStatus",
    "WebhookCreatedStatus",
    "WebhookDeleted",
    "WebhookDisabledReasonType0",
    "WebhookNarrowed",
    "WebhookNarrowedDisabledReasonType0",
    "WebhookNarrowedStatus",
    "WebhookStatus",
    "WebhookUpdate",
    "WebhookUpdateEventTypesItem",
    "WebhookUpdateStatus",
    "WhatsAppSend",
    "WhatsAppSendChannel",
    "WorkspaceMember",
    "WorkspaceMemberNarrowed",
    "WriteWarning",
)
