"""ORM models, one file per table, so domains can import each other's tables freely."""

from homebase.models.ai_action import AiAction
from homebase.models.ai_job import AiJob
from homebase.models.ai_outreach import AiOutreach
from homebase.models.api_key import ApiKey
from homebase.models.appointment import Appointment
from homebase.models.automation import Automation
from homebase.models.automation_enrolment import AutomationEnrolment
from homebase.models.automation_step_run import AutomationStepRun
from homebase.models.base import Base
from homebase.models.calendar_push import CalendarPush
from homebase.models.call import Call
from homebase.models.call_revocation import CallRevocation
from homebase.models.campaign import Campaign
from homebase.models.campaign_enrolment import CampaignEnrolment
from homebase.models.consent_artifact import ConsentArtifact
from homebase.models.console_oauth_app import ConsoleOAuthApp
from homebase.models.console_session import ConsoleSession
from homebase.models.contact import Contact
from homebase.models.conversation_read import ConversationRead
from homebase.models.custom_field import CustomField
from homebase.models.custom_field_value import CustomFieldValue
from homebase.models.data_import import DataImport
from homebase.models.deal import Deal
from homebase.models.dnc_registration import DncRegistration
from homebase.models.export import Export
from homebase.models.idempotency_key import IdempotencyKey
from homebase.models.import_error import ImportRowError
from homebase.models.lead import Lead
from homebase.models.listing import Listing
from homebase.models.member_calendar import MemberCalendar
from homebase.models.member_invitation import MemberInvitation
from homebase.models.message import Message
from homebase.models.oauth_client import OAuthClient
from homebase.models.oauth_code import OAuthCode
from homebase.models.oauth_grant import OAuthGrant
from homebase.models.oauth_token import OAuthToken
from homebase.models.office import Office
from homebase.models.outbox_event import OutboxEvent
from homebase.models.persona import Persona
from homebase.models.pipeline import Pipeline
from homebase.models.pipeline_stage import PipelineStage
from homebase.models.routing_cursor import RoutingCursor
from homebase.models.routing_rule import RoutingRule
from homebase.models.sender_number import SenderNumber
from homebase.models.suppression import Suppression
from homebase.models.task import Task
from homebase.models.task_dedupe import TaskDedupe
from homebase.models.team import Team
from homebase.models.timeline_event import TimelineEvent
from homebase.models.user import User
from homebase.models.voice_call import VoiceCall
from homebase.models.webhook_attempt import WebhookAttempt
from homebase.models.webhook_delivery import WebhookDelivery
from homebase.models.webhook_subscription import WebhookSubscription
from homebase.models.workspace import Workspace

__all__ = [
    "AiAction",
    "AiJob",
    "AiOutreach",
    "ApiKey",
    "Base",
    "Contact",
    "OutboxEvent",
    "SenderNumber",
    "TimelineEvent",
    "User",
    "VoiceCall",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookSubscription",
    "Workspace",
    "ConsentArtifact",
    "Lead",
    "Office",
    "RoutingCursor",
    "RoutingRule",
    "Team",
    "Call",
    "CallRevocation",
    "Deal",
    "Export",
    "Listing",
    "Pipeline",
    "PipelineStage",
    "Message",
    "Suppression",
    "Appointment",
    "CalendarPush",
    "MemberCalendar",
    "Automation",
    "AutomationEnrolment",
    "AutomationStepRun",
    "Campaign",
    "CampaignEnrolment",
    "DncRegistration",
    "Persona",
    "Task",
    "TaskDedupe",
    "ConsoleSession",
    "ConsoleOAuthApp",
    "OAuthClient",
    "OAuthCode",
    "OAuthGrant",
    "OAuthToken",
    "IdempotencyKey",
    "CustomField",
    "CustomFieldValue",
    "DataImport",
    "ImportRowError",
    "ConversationRead",
    "MemberInvitation",
]
