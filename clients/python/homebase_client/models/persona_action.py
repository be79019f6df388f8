from enum import StrEnum


class PersonaAction(StrEnum):
    ADD_TAGS = "add_tags"
    BOOK_SHOWING = "book_showing"
    CANCEL_SHOWING = "cancel_showing"
    CREATE_FOLLOW_UP_TASK = "create_follow_up_task"
    HAND_OFF = "hand_off"
    OPT_OUT = "opt_out"
    RESCHEDULE_SHOWING = "reschedule_showing"
    SET_QUALIFICATION = "set_qualification"
    SET_STAGE = "set_stage"

    def __str__(self) -> str:
        return str(self.value)
